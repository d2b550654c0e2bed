#!/usr/bin/env bash
# Fifth call (harness/gemm/generated/p carried): the family with the new
# split-K routes at all its lists: the decode list and extras with a clean
# L2 and the bare read of B, the under-filled list and the large five, the
# harness's standard shapes, and the split-K shapes of this stop;
# sanitizers on the new routes; t64s4 alone at small-N decode shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_p5}
mkdir -p "$OUT"
P=harness/gemm/generated/p
export PREBUILT=$P/bin
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
EXTRA="1x4096x4096 16x4096x4096 1x2048x8192 16x4096x8192 64x8192x8192 32x5120x8192 48x6144x6144 5x1000x520"
SK="128x1024x16384 100x1000x8192 40x1000x8192 128x2048x8192 96x1536x12288 200x264x1024 384x1024x8192 300x2048x4096"
f() { grep -E "^[0-9]+x|geometric|== |CORRECT|FAIL|REPEAT|differ|ERROR SUMMARY|hazard|WRONG|route"; }
SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE=0 OUT=$OUT/dec bash harness/gemm/run.sh $P/family.cu 2>&1 | f
SHAPES="$UNDER $LARGE $SK" REPEATS=10 SAN_SHAPES="128 1024 16384 40 1000 8192 256 4096 14336 100 1000 8192" \
  OUT=$OUT/under bash harness/gemm/run.sh $P/family.cu 2>&1 | f
SANITIZE=0 OUT=$OUT/std bash harness/gemm/run.sh $P/family.cu 2>&1 | f
SHAPES="1x2048x8192 16x2048x8192 1x1024x16384 64x1024x16384" SANITIZE=0 NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE \
  OUT=$OUT/t64 bash harness/gemm/run.sh $P/t64s4.cu 2>&1 | f
