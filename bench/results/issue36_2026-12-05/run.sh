#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05/run.sh
# 1. the family as committed: decode shapes with a clean L2 and the bare read
#    of the weight timed beside (FLUSH=read FLOOR=1), the under-filled list and
#    the five large shapes (no regression); sanitizers on the decode route at
#    a decode shape; 2. the decode schedule with BN = 56 .. 24 at the decode
#    shapes and N = 4096 / 2048 ones (FLUSH=read FLOOR=1).
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/bin
G=harness/gemm/generated
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
status=0
SHAPES="$DEC" FLUSH=read FLOOR=1 SAN_SHAPES="16 4096 14336 64 7168 4096" OUT=$OUT/fam_decode \
  bash harness/gemm/run.sh $G/family.cu || status=1
SHAPES="$UNDER $LARGE" SANITIZE=0 OUT=$OUT/fam_under bash harness/gemm/run.sh $G/family.cu || status=1
EXTRA="1x4096x4096 16x4096x4096 1x2048x8192 16x4096x8192"
for bn in 56 48 40 32 24; do
  SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE=0 NAME=gemm_bf16_decode OUT=$OUT/decode \
    bash harness/gemm/run.sh $G/decode_bn$bn.cu || status=1
done
exit $status
