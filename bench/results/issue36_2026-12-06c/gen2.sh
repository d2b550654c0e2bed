#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the family with this day's guards (128x128
# tiles, the `small` route, up to 11 x 12 and 12 x 11 tiles) and the family
# before them (family_old: examples/gemm_bf16_family_sm90a.cake at aecfeba),
# built into harness/gemm/generated/f/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/f
mkdir -p $G/bin $G/old
git show aecfeba:examples/gemm_bf16_family_sm90a.cake > $G/old/gemm_bf16_family_sm90a.cake
$CAKEC -I examples $G/old/gemm_bf16_family_sm90a.cake -o $G/family_old.cu
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family_old.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family_old &
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill" | sort | uniq -c
