#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the GEMM family with the swapped decode route
# (M <= 64, 2048 <= N <= 8192, K >= 4096, outside decode's full wave at
# 6144 < N <= 7392). Binary in harness/gemm/generated/f/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/f
mkdir -p $G/bin
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
