#!/usr/bin/env bash
# Third call (harness/gemm/generated/p carried): the two-level fix-up
# (splitk_tree.cake, groups of 4 x 4, 8 x 2, 2 x 8) beside the example's
# split-K (probe0 = PROBE=0) and its fix-up reading two partials a step
# (probe3) at the split-K route's shapes; correctness, ten
# repeats compared bit for bit, compute-sanitizer on tree44.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_p3}
mkdir -p "$OUT"
P=harness/gemm/generated/p
export PREBUILT=$P/bin
SHAPES="128x1024x16384 100x1000x8192 256x4096x14336 768x768x16384 1024x1024x8192 64x8192x8192 512x4096x4096 200x264x1024" \
  SANITIZE=0 REPEATS=10 NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT \
  bash harness/gemm/run.sh $P/probe0.cu $P/probe3.cu 2>&1 | grep -E "^[0-9]+x|geometric|== .*bench|CORRECT|FAIL|REPEAT|differ"
SHAPES="128x1024x16384 100x1000x8192 256x4096x14336 768x768x16384 1024x1024x8192 64x8192x8192 512x4096x4096 200x264x1024" \
  SANITIZE=tree44 SAN_SHAPES="200 264 1024 128 1024 16384" REPEATS=10 NAME=gemm_bf16_splitk2 HARNESS_FLAGS=-DWORKSPACE OUT=$OUT \
  bash harness/gemm/run.sh $P/tree44.cu $P/tree82.cu $P/tree28.cu 2>&1 | grep -E "^[0-9]+x|geometric|== |CORRECT|FAIL|REPEAT|differ|ERROR SUMMARY|hazard"
