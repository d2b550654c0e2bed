#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the family with the 128x144 clustered route
# (wave144) and the family before it (family_old: the example at ee4d965),
# built into harness/gemm/generated/d/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/d
mkdir -p $G/bin $G/old
git show ee4d965:examples/gemm_bf16_family_sm90a.cake > $G/old/gemm_bf16_family_sm90a.cake
git show ee4d965:examples/gemm_bf16_cluster_n_sm90a.cake > $G/old/gemm_bf16_cluster_n_sm90a.cake
$CAKEC -I $G/old -I examples $G/old/gemm_bf16_family_sm90a.cake -o $G/family_old.cu
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family_old.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family_old &
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
wait
grep -h -A2 "entry function" $G/bin/family*.log | grep -E "spill" | sort | uniq -c
