#!/usr/bin/env bash
# The ragged and decode GEMM run of 2026-12-01 (issue 17), one device call:
#   cakec examples/gemm_bf16_sm90a.cake -o harness/gemm/generated/gemm_bf16_sm90a.cu
#   cakec examples/gemm_bf16_decode_sm90a.cake -o harness/gemm/generated/gemm_bf16_decode_sm90a.cu
#   cakec -DBM=128 -DSTAGES=8 --kernel-name=gemm_bf16_decode128 examples/gemm_bf16_decode_sm90a.cake \
#         -o harness/gemm/generated/gemm_bf16_decode128_sm90a.cu
#   device: bash bench/results/gemm_ragged_decode_2026-12-01/run.sh [large|decode]  (carry harness/gemm/generated)
# (each part fits one 10-minute device call; no argument runs both)
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_ragged_decode_2026-12-01
st=0
PART=${1:-all}
# 1. The 128x256 schedule, now with declared shapes: the standard shapes and ragged ones.
if [ "$PART" != decode ]; then
  SHAPES=@$D/shapes_large.txt SAN_SHAPES="200 304 136 777 1536 520" NAME=gemm_bf16 \
    bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_sm90a.cu || st=1
fi
[ "$PART" != large ] || exit $st
# 2. Decode, one consumer warpgroup (M <= 64 per tile row), and two (M <= 128).
SHAPES=@$D/shapes_decode64.txt SAN_SHAPES="13 1120 1024 64 560 4096 100 336 264" NAME=gemm_bf16_decode \
  bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_decode_sm90a.cu || st=1
SHAPES=@$D/shapes_decode128.txt SAN_SHAPES="100 1120 1024 128 560 4096" NAME=gemm_bf16_decode128 \
  bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_decode128_sm90a.cu || st=1
exit $st
