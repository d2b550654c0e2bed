#!/usr/bin/env bash
# Fourth call (harness/gemm/generated/p carried): split-K in clusters of two
# M-tiles that share each B stage (examples/gemm_bf16_splitk_sm90a.cake
# -DCM=2) with cuBLAS's tile (64x64, 12 stages, at most 4 and 8 splits),
# 64x128 (8 stages, 16) and 128x128 (5 stages, 16), beside the same without
# clusters (t64s4, m64s16, probe0 = the example); correctness at ragged and
# one-M-tile shapes, ten repeats bit for bit, sanitizers on c2t64s4.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_p4}
mkdir -p "$OUT"
P=harness/gemm/generated/p
export PREBUILT=$P/bin
SHAPES="128x1024x16384 100x1000x8192 256x4096x14336 768x768x16384 1024x1024x8192 64x8192x8192 512x4096x4096 40x1000x8192 200x264x1024 128x2048x8192" \
  SANITIZE=c2t64s4 SAN_SHAPES="200 264 1024 40 1000 8192" REPEATS=10 NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT \
  bash harness/gemm/run.sh $P/c2t64s4.cu $P/t64s4.cu $P/c2t64s8.cu $P/c2m64s16.cu $P/m64s16.cu $P/c2b128s16.cu $P/probe0.cu 2>&1 \
  | grep -E "^[0-9]+x|geometric|== |CORRECT|FAIL|REPEAT|differ|ERROR SUMMARY|hazard|WRONG"
