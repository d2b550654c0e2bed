#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the stream-K example in two tile sizes and the
# family, built into harness/gemm/generated/sk/bin for run1.sh / run2.sh.
# The stream-K schedule needs -Wno-error=unproven (its counting atomic runs
# in the k-step loop: safety.unproven-cross-block).
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/sk
mkdir -p $G/bin
$CAKEC -I examples examples/gemm_bf16_streamk_sm90a.cake -Wno-error=unproven -o $G/sk256.cu 2>/dev/null
$CAKEC -I examples examples/gemm_bf16_streamk_sm90a.cake -Wno-error=unproven -DBN=128 -DSTAGES=6 -o $G/sk128.cu 2>/dev/null
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/sk256.cu gemm_bf16_streamk -DWORKSPACE -o $G/bin/sk256
bash harness/gemm/build.sh $G/sk128.cu gemm_bf16_streamk -DWORKSPACE -o $G/bin/sk128
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill" | sort | uniq -c
