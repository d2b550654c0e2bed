#!/usr/bin/env bash
# harness/gemm/run.sh - everything the GPU run of the generated GEMM needs, in
# one call on the device machine (no cakec there: the .cu is generated here
# first, by `cakec examples/gemm_bf16_sm90a.cake -o harness/gemm/generated/gemm_bf16_sm90a.cu`).
#
#   bash harness/gemm/run.sh [GENERATED.cu]
#
# 1. the GPU and its clocks; 2. nvcc builds the harness around the generated
# file (ptxas report kept); 3. correctness + CUPTI timing beside cuBLAS at the
# standard shapes; 4. compute-sanitizer memcheck, racecheck and synccheck at a
# small shape. Logs go to $OUT (or harness/gemm/out) and the table to stdout.
set -uo pipefail
cd "$(dirname "$0")/../.."
GEN=${1:-harness/gemm/generated/gemm_bf16_sm90a.cu}
OUTDIR=${OUT:-harness/gemm/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
BIN=/tmp/gemm_harness

echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
echo "== build"
"$NVCC" --version | tail -1
"$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xptxas -v -DKERNEL_CU="\"$PWD/$GEN\"" \
  harness/gemm/gemm_harness.cu -lcublas -lcupti -o "$BIN" 2>&1 | grep -E "gemm_bf16|registers|spill|error|warning" | tee "$OUTDIR/build.log"
[ -x "$BIN" ] || { echo "build failed"; exit 1; }
echo "== bench"
"$BIN" 2>&1 | tee "$OUTDIR/bench.log"
status=${PIPESTATUS[0]}
echo "== compute-sanitizer (256x512x128 and 384x768x320)"
for tool in memcheck racecheck synccheck; do
  "$SAN" --tool "$tool" --error-exitcode 9 "$BIN" --check 256 512 128 384 768 320 > "$OUTDIR/sanitizer-$tool.log" 2>&1
  echo "$tool: exit $? ; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' "$OUTDIR/sanitizer-$tool.log" | head -3 | tr '\n' ' ')"
done
exit $status
