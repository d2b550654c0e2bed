#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the decode schedule with one wgmma group in
# flight (OVERLAP=True, the example's default since this run) beside the old
# wait-for-every-step loop (OVERLAP=False), at BN = 56, 40, 32 and with
# 128-row A tiles, and the family built with the new default. Binaries go to
# harness/gemm/generated/b/bin (git-ignored; carry harness/gemm/generated).
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/b
mkdir -p $G/bin
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family &
for v in "old56 False 56 14 64" "new56 True 56 14 64" "new40 True 40 16 64" "new32 True 32 16 64" \
         "old128 False 56 8 128" "new128 True 56 8 128"; do
  set -- $v
  $CAKEC -I . -I examples examples/gemm_bf16_decode_sm90a.cake -DOVERLAP="$2" -DBN="$3" -DSTAGES="$4" \
    -DBM="$5" -o $G/decode_$1.cu
  bash harness/gemm/build.sh $G/decode_$1.cu gemm_bf16_decode -o $G/bin/decode_$1 &
done
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh $G/bin
