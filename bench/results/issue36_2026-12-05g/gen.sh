#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the family as committed (f's gen.sh, for the
# H200 run f could not get), and split-K variants at the under-filled list's
# shapes: 128-row tiles with at most 8 splits (-DSPLIT=8), 64-row tiles
# (-DBM=64 -DSTAGES=8) with 16 and 8; the stream-K experiment
# (streamk_experiment.cake, -fno-gates=safety). Binaries in
# harness/gemm/generated/{f,g}/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
bash bench/results/issue36_2026-12-05f/gen.sh
G=harness/gemm/generated/g
mkdir -p $G/bin
for v in "sk128s8 128 5 8" "sk64s16 64 8 16" "sk64s8 64 8 8"; do
  set -- $v
  $CAKEC -I examples examples/gemm_bf16_splitk_sm90a.cake -DBM="$2" -DSTAGES="$3" -DSPLIT="$4" -o $G/$1.cu
  bash harness/gemm/build.sh $G/$1.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/$1 &
done
$CAKEC -I examples bench/results/issue36_2026-12-05g/streamk_experiment.cake -fno-gates=safety -o $G/streamk.cu 2>/dev/null
bash harness/gemm/build.sh $G/streamk.cu gemm_bf16_streamk -DWORKSPACE -o $G/bin/streamk &
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh harness/gemm/generated/f/bin $G/bin
