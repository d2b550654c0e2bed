#!/usr/bin/env bash
# Second call (harness/gemm/generated/p carried): the probes timed although
# their C is wrong (TIME_WRONG=1), and split-K with cuBLAS's tile at these
# shapes (64x64, 12 stages; the peer's kernel is nvjet ..._64x64_64x13_2x1_..._splitK,
# 128 blocks at 128x1024x16384: 4 splits) with at most 4, 8 and 16 splits,
# and 64x128 tiles with 16.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_p2}
mkdir -p "$OUT"
P=harness/gemm/generated/p
export PREBUILT=$P/bin
SHAPES="128x1024x16384 100x1000x8192 256x4096x14336 768x768x16384 1024x1024x8192 64x8192x8192 512x4096x4096" \
  SANITIZE=0 TIME_WRONG=1 NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT \
  bash harness/gemm/run.sh $P/probe0.cu $P/probe1.cu $P/probe2.cu $P/t64s4.cu $P/t64s8.cu $P/t64s16.cu $P/m64s16.cu \
  2>&1 | grep -E "^[0-9]+x|geometric|== .*bench|CORRECT|FAIL|cuBLAS kernel"
