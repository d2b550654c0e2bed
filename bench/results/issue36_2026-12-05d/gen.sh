#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the decode schedule with the operands swapped
# (examples/gemm_bf16_decode_swap_sm90a.cake: 64 weight rows x NT tokens per
# wgmma) at NT = 8, 16, 32, 64 with as many stages as shared memory holds,
# beside the committed decode schedule, and the family with -DSWAP=True. Binaries in harness/gemm/generated/d/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/d
mkdir -p $G/bin
for v in "8 25" "16 22" "32 18" "64 13"; do
  set -- $v
  $CAKEC -I examples examples/gemm_bf16_decode_swap_sm90a.cake -DNT="$1" -DSTAGES="$2" -o $G/swap$1.cu
  bash harness/gemm/build.sh $G/swap$1.cu gemm_bf16_decode_swap -o $G/bin/swap$1 &
done
$CAKEC -I examples examples/gemm_bf16_decode_sm90a.cake -o $G/decode.cu
# The family as it was when this ran (99ff844: the SWAP define, since replaced
# by the swapped route of 4978bf3), so the script rebuilds what was measured.
git show 99ff844:examples/gemm_bf16_family_sm90a.cake > $G/family_99ff844.cake
$CAKEC -I examples $G/family_99ff844.cake -DSWAP=True -o $G/family_swap.cu
bash harness/gemm/build.sh $G/family_swap.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family_swap &
bash harness/gemm/build.sh $G/decode.cu gemm_bf16_decode -o $G/bin/decode &
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh $G/bin
