#!/usr/bin/env bash
# Device call 3 (carry harness/gemm/generated/sk): tiles that fill a wave
# without a split, as cuBLAS picks at these shapes: t144 (one tile a block,
# 128x144, 5 stages: bench/variants/gemm_bf16_tile144_sm90a.cake; 132 tiles
# at 1536x1536) and t192 (examples/gemm_bf16_sm90a.cake -DBN=192
# -DSTAGES=4; 256 tiles at 2000x3000, cuBLAS's 128x192) beside cuBLAS.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_sk3}
mkdir -p "$OUT"
G=harness/gemm/generated/sk
export PREBUILT=$G/bin
SHAPES="1536x1536x12288 2000x3000x1536 768x768x16384 1024x1024x8192 2048x2048x8192 512x4096x4096 200x264x1024 1000x1000x1000" \
  NAME=gemm_bf16 OUT=$OUT bash harness/gemm/run.sh $G/t144.cu $G/t192.cu 2>&1 | grep -vE "^\s*$|launcher check"
