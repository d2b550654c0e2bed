#!/usr/bin/env bash
# harness/gemm/run_sm80.sh - the mma.sync GEMM (examples/gemm_bf16_sm80.cake,
# generated for sm_80 here first) on the H200: its CUDA is compiled for
# sm_90a (mma.sync, ldmatrix and cp.async are forward compatible), checked
# against cuBLAS at several shapes, timed beside cuBLAS in the same process,
# and run under compute-sanitizer in a process of its own without cuBLAS
# (--ours-only: cuBLAS's kernels report racecheck hazards of their own, and
# filtering them with --kernel-name ended in "Internal Sanitizer Error" here
# on 2026-12-01), at a small shape and at one with many ring laps (K = 2048:
# 64 k-steps, 16 laps of the 4-stage ring).
#
#   bash harness/gemm/run_sm80.sh GENERATED.cu ...   (kernel gemm_bf16_sm80)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${OUT:-harness/gemm/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
NAME=${NAME:-gemm_bf16_sm80}  # the kernel (NAME=gemm_bf16_sm120a: that example, compiled for sm_90a)
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
status=0
for GEN in "$@"; do
  v=$(basename "$GEN" .cu)
  BIN=/tmp/gemm_harness_$v
  echo "== $v: build (compute_90a, from the sm_80 lowering)"
  "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xptxas -v -DKERNEL_CU="\"$PWD/$GEN\"" \
    -DKERNEL_NAME=$NAME harness/gemm/gemm_harness.cu -lcublas -lcupti -o "$BIN" > "$OUTDIR/build-$v.log" 2>&1
  grep -A2 "entry function '$NAME'" "$OUTDIR/build-$v.log" | tail -2
  [ -x "$BIN" ] || { echo "build failed"; cat "$OUTDIR/build-$v.log" | tail -20; status=1; continue; }
  echo "== $v: bench"
  timeout 240 "$BIN" > "$OUTDIR/bench-$v.log" 2>&1 || status=1
  cat "$OUTDIR/bench-$v.log"
  [ "${SANITIZE:-1}" = 1 ] || continue
  echo "== $v: compute-sanitizer, our kernel alone (256x512x128, 512x768x2048)"
  for tool in memcheck racecheck synccheck; do
    timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 "$BIN" --ours-only 256 512 128 512 768 2048 \
      > "$OUTDIR/san-$tool-$v.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    echo "$tool: exit $rc ; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Internal' "$OUTDIR/san-$tool-$v.log" | head -3 | tr '\n' ' ')"
  done
done
exit $status
