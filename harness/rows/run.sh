#!/usr/bin/env bash
# harness/rows/run.sh - the GPU run of the row kernels (RMSNorm with a
# residual, softmax) in one device call. Generate first, here:
#   bash harness/rows/generate.sh
# then on the device (carry harness/rows/generated):
#   bash harness/rows/run.sh
# 1. the GPU; 2. nvcc builds each generated file into a shared library
# (ptxas report kept); 3. rows_bench.py: correctness against an f32
# reference at several row counts and input scales, then CUPTI timing beside
# PyTorch eager, torch.compile and a bf16 copy of as many bytes (L2 flushed,
# median of SAMPLES); 4. compute-sanitizer memcheck, racecheck, synccheck on
# `--check-only`, filtered to our kernels. Logs in ${OUT:-harness/rows/out}.
# CHECK_ONLY=1: the bench script runs with --check-only (small shapes, no peers, no timing).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/rows/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
status=0
SPECS=""
for f in harness/rows/generated/{rmsnorm,softmax}_*.cu; do
  name=$(basename "$f" .cu)  # KIND_N_ROWS
  so=/tmp/cake_rows_$name.so
  if timeout 300 "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -lineinfo -Xptxas -v -Xcompiler -fPIC \
      -shared -o "$so" "$f" > "$OUTDIR/build-$name.log" 2>&1 && cp "${f%.cu}.json" "${so%.so}.json"; then
    echo "built $name: $(grep -E 'registers' "$OUTDIR/build-$name.log" | head -1 | sed 's/.*: //'); $(grep -E 'spill' "$OUTDIR/build-$name.log" | head -1 | sed 's/.*: *//')"
    IFS=_ read -r kind n rows <<< "$name"
    SPECS="$SPECS $so:$kind:$n:$rows"
  else
    echo "build $name failed"; cat "$OUTDIR/build-$name.log"; status=1
  fi
done
FP8=""
for kind in e4m3 e5m2; do
  so=/tmp/cake_rows_fp8_$kind.so
  timeout 300 "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared -o "$so" \
    harness/rows/generated/fp8_$kind.cu > "$OUTDIR/build-fp8_$kind.log" 2>&1 &&
    cp harness/rows/generated/fp8_$kind.json "${so%.so}.json" && FP8="$FP8 $so:$kind" || status=1
done
echo "== fp8 round trips"
# shellcheck disable=SC2086
timeout 120 python3 harness/rows/fp8_check.py $FP8 2>&1 | tee "$OUTDIR/fp8.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${BENCH:-1}" = 1 ] || SPECS=""
# shellcheck disable=SC2086  # the specs are separate arguments
[ -z "$SPECS" ] || timeout 420 python3 harness/rows/rows_bench.py ${CHECK_ONLY:+--check-only} --samples "${SAMPLES:-120}" --json "$OUTDIR/rows.json" $SPECS \
  2>&1 | tee "$OUTDIR/bench.log" | grep -v "Warning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
echo "== compute-sanitizer (--check-only), filtered to our kernels"
for tool in memcheck racecheck synccheck; do
  # shellcheck disable=SC2086
  timeout 120 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=fp8_quant \
    python3 harness/rows/fp8_check.py $FP8 > "$OUTDIR/san-$tool-fp8.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "$tool fp8_quant: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAIL' "$OUTDIR/san-$tool-fp8.log" | head -2 | tr '\n' ' ')"
  [ -n "$SPECS" ] || continue
  for kernel in rmsnorm_residual softmax_rows; do
    # shellcheck disable=SC2086
    timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=$kernel \
      python3 harness/rows/rows_bench.py --check-only $SPECS > "$OUTDIR/san-$tool-$kernel.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    echo "$tool $kernel: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAIL' "$OUTDIR/san-$tool-$kernel.log" | head -2 | tr '\n' ' ')"
  done
done
echo "exit $status"
exit $status
