#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): split-K with 64-row A tiles (one consumer
# warpgroup, -DBM=64) for decode shapes: the ring then holds more of the
# weight B per block (128-144 KB against the decode schedule's 98 KB and
# split-K's 80 KB at BM = 128). Binaries in harness/gemm/generated/c/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/c
mkdir -p $G/bin
for v in "sk128 128 128 5" "sk64n128 64 128 8" "sk64n192 64 192 6" "sk64n256 64 256 4"; do
  set -- $v
  $CAKEC -I examples examples/gemm_bf16_splitk_sm90a.cake -DBM="$2" -DBN="$3" -DSTAGES="$4" -o $G/$1.cu
  bash harness/gemm/build.sh $G/$1.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/$1 &
done
$CAKEC -I examples examples/gemm_bf16_decode_sm90a.cake -o $G/decode.cu
bash harness/gemm/build.sh $G/decode.cu gemm_bf16_decode -o $G/bin/decode &
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh $G/bin
