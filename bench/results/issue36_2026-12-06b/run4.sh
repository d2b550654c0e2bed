#!/usr/bin/env bash
# Device call 4 (carry harness/gemm/generated/sk): the family with the
# 128x192 one-tile route (two boxes of M, N) beside cuBLAS: the under-filled
# list, shapes inside the boxes, and the large five (routes unchanged there).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_sk4}
mkdir -p "$OUT"
G=harness/gemm/generated/sk
export PREBUILT=$G/bin
for list in "@harness/gemm/shapes/underfilled.txt" "1280x1280x8192 1536x1152x4096 1100x1500x12288 1600x2944x2048 2048x3072x4096 1800x3000x8192" "@harness/gemm/shapes/large5.txt"; do
  SHAPES="$list" SANITIZE=0 NAME=gemm_bf16 HARNESS_FLAGS="-DFAMILY -DWORKSPACE" OUT=$OUT \
    bash harness/gemm/run.sh $G/family.cu 2>&1 | grep -E "^[0-9]+x|geometric|CORRECT|FAIL|route:"
done
