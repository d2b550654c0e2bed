#!/usr/bin/env bash
# Round 2 of 2026-12-06c: the example's two-ring schedule with each tile's C
# stored from acc under the next tile's first wgmmas (blockscaled_c_under.cake)
# beside the example (PRODUCTS=2). Here:
#   bash bench/results/issue37_2026-12-06c/gen2.sh
# then on the device, carrying harness/fp8/generated:
#   OUT=$OUT GEN=harness/fp8/generated/i37e bash bench/results/issue37_2026-12-06b/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/forms.sh harness/fp8/generated/i37e <<'FORMS'
gemm_fp8_blockscaled_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake
gemm_fp8_blockscaled_under_e4m3 -I . bench/results/issue37_2026-12-06c/blockscaled_c_under.cake
vector_loads testsuite/codegen/Inputs/vector_loads.cake --target=sm_90a
vector_stores testsuite/codegen/Inputs/vector_stores.cake --target=sm_90a
first_rows testsuite/codegen/Inputs/first_rows.cake --target=sm_90a
FORMS
