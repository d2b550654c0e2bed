#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/splitk_reduce_2026-12-04/run.sh [first|final]
# first: the experiment (both split-K schedules alone; the family with every
# split-K route on each); final: the committed family with and without
# -DDETERMINISTIC=False, and the TMA-addition schedule at ragged shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/bin
G=harness/gemm/generated
EXTRA="100x1000x8192 64x4096x14336 128x7168x14336"
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
status=0
if [ "${1:-first}" = final ]; then
  SHAPES="$UNDER $EXTRA" SANITIZE=0 OUT=$OUT/final bash harness/gemm/run.sh $G/family_sk.cu || status=1
  SHAPES="$UNDER $EXTRA" REPEATS=10 NONDETERMINISTIC=1 SAN_SHAPES="100 1000 8192 128 1024 16384" \
    OUT=$OUT/final bash harness/gemm/run.sh $G/family_nondet.cu || status=1
  SHAPES="100x1000x8192 1000x3000x520 8x8x8 128x256x16384" REPEATS=10 NONDETERMINISTIC=1 SANITIZE=0 \
    OUT=$OUT/final bash harness/gemm/run.sh $G/splitk16_red.cu || status=1
  exit $status
fi
# 1. split-K alone: deterministic (10 repeats bitwise) and TMA additions (10
# repeats each correct: the workspace is clean after every launch)
SHAPES="$UNDER $EXTRA" REPEATS=10 SANITIZE=0 OUT=$OUT/sk bash harness/gemm/run.sh $G/splitk16.cu || status=1
SHAPES="$UNDER $EXTRA" REPEATS=10 NONDETERMINISTIC=1 SAN_SHAPES="256 512 128 200 264 1024 1000 3000 520 128 256 4096" \
  OUT=$OUT/sk bash harness/gemm/run.sh $G/splitk16_red.cu || status=1
# 2. the family as committed and with TMA-addition split-K routes
SHAPES="$UNDER $EXTRA" SANITIZE=0 OUT=$OUT/fam bash harness/gemm/run.sh $G/family_sk.cu || status=1
SHAPES="$UNDER $EXTRA" REPEATS=3 NONDETERMINISTIC=1 SAN_SHAPES="256 512 4096 100 1000 8192" \
  OUT=$OUT/fam bash harness/gemm/run.sh $G/family_red.cu || status=1
exit $status
