#!/usr/bin/env bash
# Generates and builds (no GPU needed) what run.sh runs: every sm_90a
# example, after issue 32's redesign steps (program-point facts in the
# analysis layer, drains read off the in-flight walk, IntOps.def, lower.*).
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=${CAKEC:-build-test/bin/cakec}
D=bench/results/issue32_2026-12-02
mkdir -p harness/attention/generated harness/kmeans/generated harness/gemm/generated
"$C" -I . --target=sm_90a examples/attention_fwd_sm90a.cake -o harness/attention/generated/attention_fwd_sm90a.cu
"$C" -I . --target=sm_90a -DCAUSAL=True examples/attention_fwd_sm90a.cake -o harness/attention/generated/attention_fwd_causal_sm90a.cu
"$C" -I . --target=sm_90a examples/attention_fwd_simple_sm90a.cake -o harness/attention/generated/attention_fwd_simple_sm90a.cu
"$C" -I . --target=sm_90a examples/kmeans_assign_sm90a.cake -o harness/kmeans/generated/kmeans_assign_sm90a.cu
CAKEC=$C bash harness/gemm/variants.sh $D/variants.txt
CAKEC=$C bash harness/gemm/variants.sh $D/variants_sm80.txt gemm_bf16_sm80
"$C" examples/gemm_bf16_family_sm90a.cake -o harness/gemm/generated/gemm_bf16_family_sm90a.cu
bash harness/gemm/build.sh harness/gemm/generated/gemm_bf16_family_sm90a.cu gemm_bf16 -DFAMILY
