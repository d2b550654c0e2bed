#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05d/run.sh
# The swapped decode schedule at NT = 8 .. 64 beside the committed decode
# schedule, at the decode shapes and N = 4096 / 2048 / 8192 ones, with a
# clean L2 and the bare read of B beside (FLUSH=read FLOOR=1); sanitizers on
# the swapped schedule at a decode shape and a ragged small one; the family
# with -DSWAP=True at the same shapes (sanitizers on its swap route).
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/d/bin
G=harness/gemm/generated/d
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
EXTRA="1x4096x4096 16x4096x4096 1x2048x8192 16x4096x8192 64x8192x8192 32x5120x8192 5x1000x520"
status=0
for v in swap8 swap16 swap32 swap64; do
  SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE="swap16 swap64" SAN_SHAPES="16 4096 14336 5 1000 520 70 200 136" \
    NAME=gemm_bf16_decode_swap OUT=$OUT/swap bash harness/gemm/run.sh $G/$v.cu || status=1
done
SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE=0 NAME=gemm_bf16_decode OUT=$OUT/decode \
  bash harness/gemm/run.sh $G/decode.cu || status=1
SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SAN_SHAPES="1 4096 14336 16 2048 2048" OUT=$OUT/fam \
  bash harness/gemm/run.sh $G/family_swap.cu || status=1
exit $status
