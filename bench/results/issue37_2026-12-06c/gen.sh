#!/usr/bin/env bash
# Issue 37, 2026-12-06c: the two-ring block-scaled form that the safety gate
# accepts and ptxas does not serialize (now the example's default,
# PRODUCTS=2), beside the example's earlier schedule (PRODUCTS=1). Here:
#   bash bench/results/issue37_2026-12-06c/gen.sh
# then on the device, carrying harness/fp8/generated:
#   OUT=$OUT GEN=harness/fp8/generated/i37d bash bench/results/issue37_2026-12-06b/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/forms.sh harness/fp8/generated/i37d <<'FORMS'
gemm_fp8_blockscaled_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake -DPRODUCTS=1
gemm_fp8_blockscaled_rings_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake
vector_loads testsuite/codegen/Inputs/vector_loads.cake --target=sm_90a
vector_stores testsuite/codegen/Inputs/vector_stores.cake --target=sm_90a
first_rows testsuite/codegen/Inputs/first_rows.cake --target=sm_90a
FORMS
