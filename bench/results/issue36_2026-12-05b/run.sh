#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05b/run.sh
# 1. decode with and without a wgmma group in flight, at the decode shapes
#    and N = 4096 / 2048 ones, clean L2 and the bare read of the weight
#    beside (FLUSH=read FLOOR=1); 128-row A tiles at M = 65..128;
# 2. the family with the new default: decode shapes (FLUSH=read FLOOR=1,
#    sanitizers on the decode routes), the under-filled list and the five
#    large shapes (no regression).
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/b/bin
G=harness/gemm/generated/b
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
EXTRA="1x4096x4096 16x4096x4096 1x2048x8192 16x4096x8192 64x8192x8192"
status=0
for v in old56 new56 new40 new32; do
  SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE=0 NAME=gemm_bf16_decode OUT=$OUT/decode \
    bash harness/gemm/run.sh $G/decode_$v.cu || status=1
done
for v in old128 new128; do
  SHAPES="96x7168x4096 128x7168x4096 96x4096x14336 128x4096x14336" FLUSH=read FLOOR=1 SANITIZE=0 \
    NAME=gemm_bf16_decode OUT=$OUT/decode bash harness/gemm/run.sh $G/decode_$v.cu || status=1
done
SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SAN_SHAPES="16 4096 14336 64 7168 4096 128 7168 4096" \
  OUT=$OUT/fam_decode bash harness/gemm/run.sh $G/family.cu || status=1
SHAPES="$UNDER $LARGE" SANITIZE=0 OUT=$OUT/fam_under bash harness/gemm/run.sh $G/family.cu || status=1
exit $status
