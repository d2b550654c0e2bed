#!/usr/bin/env bash
# Device call 2 (carry harness/gemm/generated/sk): call 1 without the family, after
# the launcher refused call 1 (part slots b - first: not bounded; now b % slots)
# (examples/gemm_bf16_streamk_sm90a.cake; sk256: 128x256 tiles, 4 stages;
# sk128: 128x128 tiles, 6 stages) beside cuBLAS at the under-filled list and
# a few more, 10 repeats compared bit for bit, sanitizers at ragged shapes;
# the family (routes of 2026-12-06) at the same shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_sk2}
mkdir -p "$OUT"
G=harness/gemm/generated/sk
export PREBUILT=$G/bin
SH="2048x2048x8192 256x4096x14336 64x8192x8192 128x1024x16384 2000x3000x1536 1536x1536x12288 768x768x16384 1024x1024x8192 512x4096x4096 200x264x1024 1000x1000x1000 4096x4096x4096"
SHAPES="$SH" REPEATS=10 SAN_SHAPES="200 264 1024 384 768 4096 1536 1536 1536" NAME=gemm_bf16_streamk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT \
  bash harness/gemm/run.sh $G/sk256.cu $G/sk128.cu 2>&1 | grep -vE "^\s*$"
