#!/usr/bin/env bash
# One device call (after gen.sh here; harness/gemm/generated/p carried, and
# for the H200-only parts harness/rows/generated and harness/fp8/generated):
#   OUT=$OUT bash bench/results/issue36_2026-12-06/run.sh
# 1. the split-K probes beside the example's split-K and its TMA-addition
#    form at the split-K route's shapes (timed beside cuBLAS; the probes'
#    C is wrong by design, so the harness says FAILURES for them);
# 2. Nsight Compute on the example's split-K at 128x1024x16384;
# 3. on an H200 only, the runs owed to it: the staged softmax
#    (bench/results/softmax_staged_2026-12-06) and the fp8 GEMMs
#    (bench/results/issue37_2026-12-06c, forms i37d).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_p}
mkdir -p "$OUT"
status=0
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "== $(date -u +%FT%TZ) $GPU"
export PREBUILT=harness/gemm/generated/p/bin
SHAPES="128x1024x16384 100x1000x8192 256x4096x14336 768x768x16384 1024x1024x8192" SANITIZE=0 \
  NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT/sk \
  bash harness/gemm/run.sh harness/gemm/generated/p/probe0.cu harness/gemm/generated/p/probe1.cu \
  harness/gemm/generated/p/probe2.cu harness/gemm/generated/p/reduce.cu 2>&1 | grep -E "^[0-9]+x|geometric|==|CORRECT|FAIL"
KERNEL_NAME=gemm_bf16_splitk OUT=$OUT/ncu timeout 200 bash harness/gemm/profile.sh harness/gemm/generated/p/probe0.cu 128 1024 16384
grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|dram__bytes_read.sum|lts__t_bytes|Registers|Achieved Occ|gemm|sm90|cutlass" \
  $OUT/ncu/ncu-probe0-128x1024x16384.txt | head -40
case $GPU in
  *H200*)
    OUT=$OUT/softmax timeout 200 bash bench/results/softmax_staged_2026-12-06/run.sh || status=1
    OUT=$OUT/fp8 GEN=harness/fp8/generated/i37d timeout 240 bash bench/results/issue37_2026-12-06b/run.sh 2>&1 | tail -40 || status=1 ;;
esac
exit $status
