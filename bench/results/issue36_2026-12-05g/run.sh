#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05g/run.sh
# 1. f's run: the family with the swapped decode route (decode shapes with a
#    clean L2 and the bare read of B, sanitizers on the new route; the
#    under-filled list and the large five).
# 2. split-K variants alone at the under-filled list (sanitizers at a ragged
#    shape and an under-filled one).
set -uo pipefail
cd "$(dirname "$0")/../../.."
status=0
OUT=$OUT/f bash bench/results/issue36_2026-12-05f/run.sh || status=1
export PREBUILT=harness/gemm/generated/g/bin
G=harness/gemm/generated/g
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
for v in sk128s8 sk64s16 sk64s8; do
  SHAPES="$UNDER 100x1000x8192 64x4096x14336" SANITIZE="$v" SAN_SHAPES="100 1000 520 128 1024 16384" \
    NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT/sk bash harness/gemm/run.sh $G/$v.cu || status=1
done
# 3. the stream-K experiment: the under-filled list, ragged shapes, the large
#    five; sanitizers at a ragged shape and at 1536x1536x12288; ten repeats
#    compared bitwise (deterministic: the fix-up adds in block order).
SHAPES="$UNDER 100x1000x8192 1000x3000x520 200x264x1024 $(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')" \
  SANITIZE=streamk SAN_SHAPES="200 264 1024 1536 1536 12288" REPEATS=10 NAME=gemm_bf16_streamk \
  HARNESS_FLAGS=-DWORKSPACE OUT=$OUT/streamk bash harness/gemm/run.sh $G/streamk.cu || status=1
exit $status
