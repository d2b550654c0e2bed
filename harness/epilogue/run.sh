#!/usr/bin/env bash
# harness/epilogue/run.sh - the GPU run of the fused-epilogue GEMMs and of the
# fragment-load kernel, in one device call. Generate first, here:
#   bash harness/epilogue/generate.sh
# then on the device (carry harness/epilogue/generated):
#   bash harness/epilogue/run.sh
# 1. the GPU; 2. nvcc builds each generated file into a shared library
# (ptxas report kept; the sm_80 file is compiled from compute_80 PTX for the
# H200); 3. loads_check.py: the fragment-load kernel (sm_90a and sm_80 code)
# against an f32 reference; 4. epilogue_bench.py: each epilogue variant
# against an f32 reference at several shapes and input scales, then timed
# beside PyTorch eager and torch.compile (CUPTI, L2 flushed, median of
# SAMPLES); 5. compute-sanitizer memcheck, racecheck, synccheck on
# `--check-only` runs, filtered to our kernels. Logs in ${OUT:-harness/epilogue/out}.
# CHECK_ONLY=1: the bench script runs with --check-only (small shapes, no peers, no timing).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/epilogue/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
GEN=harness/epilogue/generated
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
status=0
build() {  # build FILE.cu ARCH-FLAGS -> /tmp/cake_epi_FILE.so
  local name so
  name=$(basename "$1" .cu); so=/tmp/cake_epi_$name.so
  timeout 300 "$NVCC" $2 -O3 -std=c++17 -lineinfo -Xptxas -v -Xcompiler -fPIC -shared -o "$so" "$1" \
    > "$OUTDIR/build-$name.log" 2>&1 || { echo "build $name failed"; cat "$OUTDIR/build-$name.log"; status=1; return; }
  # The interface beside the library: the harnesses bind it through the Python package.
  cp "${1%.cu}.json" "${so%.so}.json" || { echo "no interface ${1%.cu}.json: run generate.sh"; status=1; return; }
  echo "built $name: $(grep -E 'registers' "$OUTDIR/build-$name.log" | head -1 | sed 's/.*: //'); $(grep -E 'spill' "$OUTDIR/build-$name.log" | head -1 | sed 's/.*: *//')"
}
SM90="-gencode arch=compute_90a,code=sm_90a"
build $GEN/fragment_loads_sm90a.cu "$SM90"
build $GEN/fragment_loads_sm80.cu "-gencode arch=compute_80,code=sm_90"
SPECS=""
for f in $GEN/gemm_epi_*.cu; do
  build "$f" "$SM90"
  name=$(basename "$f" .cu)  # gemm_epi_ACT_BIAS_RES
  IFS=_ read -r _ _ act bias res <<< "$name"
  SPECS="$SPECS /tmp/cake_epi_$name.so:$act:$bias:$res"
done
echo "== fragment loads"
timeout 120 python3 harness/epilogue/loads_check.py /tmp/cake_epi_fragment_loads_sm90a.so /tmp/cake_epi_fragment_loads_sm80.so \
  2>&1 | tee "$OUTDIR/loads.log" | grep -v Warning
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "== epilogue GEMMs"
# shellcheck disable=SC2086  # the specs are separate arguments
timeout 420 python3 harness/epilogue/epilogue_bench.py ${CHECK_ONLY:+--check-only} --samples "${SAMPLES:-120}" --json "$OUTDIR/epilogue.json" $SPECS \
  2>&1 | tee "$OUTDIR/bench.log" | grep -v "Warning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
echo "== compute-sanitizer, filtered to our kernels"
for tool in memcheck racecheck synccheck; do
  timeout 120 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=fragment_loads \
    python3 harness/epilogue/loads_check.py /tmp/cake_epi_fragment_loads_sm90a.so /tmp/cake_epi_fragment_loads_sm80.so > "$OUTDIR/san-$tool-loads.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "loads $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' "$OUTDIR/san-$tool-loads.log" | head -3 | tr '\n' ' ')"
  # shellcheck disable=SC2086
  timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=gemm_bf16_epilogue \
    python3 harness/epilogue/epilogue_bench.py --check-only $SPECS > "$OUTDIR/san-$tool-epilogue.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "epilogue $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' "$OUTDIR/san-$tool-epilogue.log" | head -3 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
