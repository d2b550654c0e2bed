#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): split-K's last-block form with its S = 1 case
# (a block that owns its tile stores C directly: `elif S == 1:`), as
# examples/gemm_bf16_splitk_sm90a.cake has it now, beside the form before
# that change (commit 996b959), and the new form's REDUCE=True and CM=2
# variants, which take the same branch. Built into
# harness/gemm/generated/s/bin; run.sh runs them on the device:
#   bash bench/results/splitk_s1_2026-12-07/gen.sh
#   OUT=$OUT bash bench/results/splitk_s1_2026-12-07/run.sh   # carry harness/gemm/generated/s
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/s
mkdir -p $G/bin
git show 996b959:examples/gemm_bf16_splitk_sm90a.cake > $G/before.cake
$CAKEC -I examples $G/before.cake -o $G/before.cu
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -o $G/s1.cu
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -DREDUCE=True -o $G/s1_reduce.cu
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -DCM=2 -o $G/s1_cm2.cu
for k in before s1 s1_reduce s1_cm2; do
  bash harness/gemm/build.sh $G/$k.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/$k
done
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
