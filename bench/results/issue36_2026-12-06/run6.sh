#!/usr/bin/env bash
# Sixth call (harness/gemm/generated/p carried): one-tile schedules in
# clusters at the under-filled shapes where cuBLAS runs no split
# (its kernels there: 128x64 tiles in 1x2 clusters, 8 stages, at
# 256x4096x14336 and 1024x1024x8192; 128x128 in 2x1 clusters, 6 stages, at
# 512x4096x4096): examples/gemm_bf16_cluster_n_sm90a.cake (128x64, 1x2,
# sharing A) with 4 and 8 stages, examples/gemm_bf16_cluster_sm90a.cake
# -DBN=128 (2x1, sharing B) with 4 and 5; then the family with split-K
# 64x64 ahead of the swapped decode at N = 2048 (the decode list).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_p6}
mkdir -p "$OUT"
P=harness/gemm/generated/p
export PREBUILT=$P/bin
f() { grep -E "^[0-9]+x|geometric|== .*bench|CORRECT|FAIL|WRONG|route"; }
SHAPES="1024x1024x8192 256x4096x14336 768x768x16384 512x4096x4096 1536x1536x12288 2048x2048x8192 512x2048x8192" SANITIZE=0 \
  OUT=$OUT/one bash harness/gemm/run.sh $P/mid4.cu $P/mid8.cu $P/clu128s5.cu $P/clu128s4.cu 2>&1 | f
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
SHAPES="$DEC 1x2048x8192 16x2048x8192 1x1024x16384 64x2048x14336" FLUSH=read FLOOR=1 SANITIZE=0 \
  OUT=$OUT/dec bash harness/gemm/run.sh $P/family.cu 2>&1 | f
