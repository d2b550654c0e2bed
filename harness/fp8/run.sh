#!/usr/bin/env bash
# harness/fp8/run.sh - the GPU run of the fp8 GEMMs, in one device call.
# Generate first, here:
#   bash harness/fp8/generate.sh
# then on the device (carry harness/fp8/generated):
#   bash harness/fp8/run.sh
# 1. the GPU; 2. nvcc builds each generated file into a shared library
# (ptxas report kept; the sm_89 GEMM as compute_89 PTX, compiled for the H200
# when loaded); 3. vectors_check.py: the vector-load and vector-store kernels (and
# the sanitizers on them); fp8_bench.py: the launcher's checks, each kernel
# against a float64 reference of the same scaled product at several shapes
# and input scales (cuBLASLt's error beside), then timed beside
# torch._scaled_mm (CUPTI, L2 flushed, median of SAMPLES); 4.
# compute-sanitizer memcheck, racecheck, synccheck on `--check-only` runs,
# filtered to our kernels. Logs in ${OUT:-harness/fp8/out}.
# CHECK_ONLY=1: the bench script runs with --check-only (small shapes, no peers, no timing).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/fp8/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
GEN=${GEN:-harness/fp8/generated}
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
status=0
shopt -s nullglob  # a generated directory without some of the kinds
SPECS=""
for f in $GEN/gemm_fp8_*.cu $GEN/sm89_*.cu; do
  name=$(basename "$f" .cu); so=/tmp/cake_$name.so
  arch="-gencode arch=compute_90a,code=sm_90a"
  case $name in sm89_*) arch="-gencode arch=compute_89,code=compute_89" ;; esac  # PTX, compiled for the H200 at load
  # shellcheck disable=SC2086
  if timeout 300 "$NVCC" $arch -O3 -std=c++17 -lineinfo -Xptxas -v -Xcompiler -fPIC \
      -shared -o "$so" "$f" > /tmp/build-$name.log 2>&1 && cp "${f%.cu}.json" "${so%.so}.json"; then
    { echo "== $name"; cat /tmp/build-$name.log; } >> "$OUTDIR/build.log"
    echo "built $name: $(grep -E 'registers' /tmp/build-$name.log | head -1 | sed 's/.*: //'); $(grep -E 'spill' /tmp/build-$name.log | head -1 | sed 's/.*: *//')"
    case $name in
      *_rowwise_*) SPECS="$SPECS $so:${name##*_}:rowwise" ;;
      *_blockscaled_*) SPECS="$SPECS $so:${name##*_}:block" ;;
      sm89_*) SPECS="$SPECS $so:${name##*_}:unscaled" ;;
      *) SPECS="$SPECS $so:${name##*_}" ;;
    esac
  else
    echo "build $name failed"; cat /tmp/build-$name.log; status=1
  fi
done
for v in vector_loads vector_stores first_rows; do
  if timeout 300 "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared \
      -o /tmp/cake_$v.so $GEN/$v.cu > /tmp/build-$v.log 2>&1 && cp $GEN/$v.json /tmp/cake_$v.json; then :; else
    echo "build $v failed"; cat /tmp/build-$v.log; status=1
  fi
done
echo "== vector loads and stores"
timeout 120 python3 harness/fp8/vectors_check.py /tmp/cake_vector_loads.so /tmp/cake_vector_stores.so /tmp/cake_first_rows.so 2>&1 |
  tee "$OUTDIR/vectors.log" | tail -4
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
if [ "${SANITIZE:-1}" = 1 ]; then
  for tool in memcheck racecheck synccheck; do
    for filt in vector_ first_rows; do
      timeout 120 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name "kns=$filt" \
        python3 harness/fp8/vectors_check.py /tmp/cake_vector_loads.so /tmp/cake_vector_stores.so /tmp/cake_first_rows.so \
        > /tmp/san-v-$tool.log 2>&1
      rc=$?; [ $rc -eq 0 ] || status=1
      { echo "== $filt $tool: exit $rc"; cat /tmp/san-v-$tool.log; } >> "$OUTDIR/sanitizer.log"
      echo "$filt $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' /tmp/san-v-$tool.log | head -3 | tr '\n' ' ')"
    done
  done
fi
echo "== fp8 GEMMs"
# shellcheck disable=SC2086  # the specs are separate arguments
timeout 420 python3 harness/fp8/fp8_bench.py ${CHECK_ONLY:+--check-only} --samples "${SAMPLES:-120}" --json "$OUTDIR/fp8.json" ${SHAPES:+--shapes $SHAPES} $SPECS \
  2>&1 | tee "$OUTDIR/bench.log" | grep -E "^==|TFLOP|/ ours|CORRECT|FAIL|refuses"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
echo "== compute-sanitizer, filtered to our kernels"
for tool in memcheck racecheck synccheck; do
  # shellcheck disable=SC2086
  timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=gemm_ \
    python3 harness/fp8/fp8_bench.py --check-only $SPECS > /tmp/san-$tool.log 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  { echo "== $tool: exit $rc"; cat /tmp/san-$tool.log; } >> "$OUTDIR/sanitizer.log"
  echo "$tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' /tmp/san-$tool.log | head -3 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
