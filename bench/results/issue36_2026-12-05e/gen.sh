#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the decode schedule with wider K steps, so each
# TMA box reads 256 or 512 contiguous bytes of every weight row instead of
# 128 (BK = 128, 256), beside the committed BK = 64. Binaries in
# harness/gemm/generated/e/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/e
mkdir -p $G/bin
for v in "bk64 56 64 14" "bk128 56 128 7" "bk256 56 256 3" "bk128n32 32 128 9"; do
  set -- $v
  $CAKEC -I examples examples/gemm_bf16_decode_sm90a.cake -DBN="$2" -DBK="$3" -DSTAGES="$4" -o $G/$1.cu
  bash harness/gemm/build.sh $G/$1.cu gemm_bf16_decode -o $G/bin/$1 &
done
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh $G/bin
