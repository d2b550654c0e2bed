#!/usr/bin/env bash
# One call on an H200, the runs owed to it, in priority order under time
# limits (carry harness/gemm/generated/p, harness/fp8/generated,
# harness/rows/generated; after bench/results/issue36_2026-12-06/gen.sh,
# bench/results/issue37_2026-12-06c/gen.sh and
# bench/results/softmax_staged_2026-12-06/gen.sh here):
# 1. the GEMM family with this day's split-K routes: the under-filled list
#    and the large five, then the decode list (clean L2, the bare read of B);
# 2. the fp8 block-scaled GEMM (PRODUCTS=2 and 1) at the issue's shapes
#    and the bar's 4096x7168x16384, beside cuBLASLt (no sanitizers);
# 3. the staged softmax over rows of 32768 (no sanitizers).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/h200}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
P=harness/gemm/generated/p
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
f() { grep -E "^[0-9]+x|geometric|== .*bench|CORRECT|FAIL|WRONG"; }
PREBUILT=$P/bin SHAPES="$UNDER $LARGE 100x1000x8192 128x2048x8192" SANITIZE=0 OUT=$OUT/under \
  timeout 170 bash harness/gemm/run.sh $P/family.cu 2>&1 | f
[ "${QUICK:-0}" = 1 ] && exit 0  # QUICK=1: only the under-filled list and the large five
PREBUILT=$P/bin SHAPES="$DEC 1x2048x8192 16x2048x8192" FLUSH=read FLOOR=1 SANITIZE=0 OUT=$OUT/dec \
  timeout 100 bash harness/gemm/run.sh $P/family.cu 2>&1 | f
FP8_ROW_TILE=3072 GEN=harness/fp8/generated/i37d SAMPLES=100 SANITIZE=0 OUT=$OUT/fp8 \
  SHAPES="4096x7168x4096,8192x8192x8192,4096x4096x4096,2048x7168x16384,4096x7168x16384" \
  timeout 170 bash harness/fp8/run.sh 2>&1 | grep -v "^build\|Warning\|warn" | tail -25
OUT=$OUT/softmax SANITIZE=0 GEN=harness/rows/generated/staged timeout 110 bash bench/results/softmax_long_2026-12-06/run.sh 2>&1 | tail -14
