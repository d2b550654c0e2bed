#!/usr/bin/env bash
# Generates and builds (here: nvcc needs no GPU) the split-K kernels and
# families this run compares; run.sh runs them on the H200.
#   bash bench/results/splitk_reduce_2026-12-04/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -o $G/splitk16.cu
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -DREDUCE=True -o $G/splitk16_red.cu
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family_sk.cu
# The family with its split-K routes on the TMA-addition variant.
sed 's/^from gemm_bf16_splitk_sm90a import gemm_bf16_splitk as splitk$/splitk_reduce = cake.instantiate("gemm_bf16_splitk_sm90a", REDUCE=True)/; s/lm.route(splitk, /lm.route(splitk_reduce.gemm_bf16_splitk, /' \
  examples/gemm_bf16_family_sm90a.cake > $G/family_red.cake
$CAKEC -I examples $G/family_red.cake -o $G/family_red.cu
# The family as committed, deterministic (the default) and not.
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -DDETERMINISTIC=False -o $G/family_nondet.cu
for k in splitk16 splitk16_red; do
  bash harness/gemm/build.sh $G/$k.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/$k
done
for k in family_sk family_red family_nondet; do
  bash harness/gemm/build.sh $G/$k.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/$k
done
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
