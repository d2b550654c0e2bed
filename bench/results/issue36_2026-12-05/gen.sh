#!/usr/bin/env bash
# Issue 36, 2026-12-05: generates and builds here (nvcc needs no GPU) what
# run.sh runs on the H200: the family as committed (its decode guard of
# e414d63 has not run on a GPU yet) and the decode schedule with narrower
# weight tiles (more blocks at N = 4096: BN = 32 is 128 blocks).
#   bash bench/results/issue36_2026-12-05/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
for v in "56 14" "48 15" "40 16" "32 16" "24 18"; do
  set -- $v
  $CAKEC -I . -I examples examples/gemm_bf16_decode_sm90a.cake -DBN="$1" -DSTAGES="$2" -o $G/decode_bn$1.cu
  bash harness/gemm/build.sh $G/decode_bn$1.cu gemm_bf16_decode -o $G/bin/decode_bn$1 &
done
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh $G/bin
