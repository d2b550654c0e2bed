#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the split-K probes (probe.cake, PROBE=0/1/2),
# split-K with TMA additions (-DREDUCE=True) and with at most 8 splits, built
# into harness/gemm/generated/p/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/p
mkdir -p $G/bin
for p in 0 1 2; do
  $CAKEC -I examples bench/results/issue36_2026-12-06/probe.cake -DPROBE=$p -o $G/probe$p.cu 2>/dev/null
  bash harness/gemm/build.sh $G/probe$p.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/probe$p &
done
wait
$CAKEC -I examples examples/gemm_bf16_splitk_sm90a.cake -DREDUCE=True -o $G/reduce.cu
bash harness/gemm/build.sh $G/reduce.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/reduce
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
du -sh $G/bin
# The family with the new split-K routes (64x64 tiles, clusters of two
# M-tiles): harness/gemm/generated/p/bin/family.
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
