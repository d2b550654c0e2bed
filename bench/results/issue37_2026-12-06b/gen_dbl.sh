#!/usr/bin/env bash
# Round 4 (issue 37): two product accumulators, the stage loop unrolled by
# two (blockscaled_dbl_unrolled.cake: each stage's product added while the
# next stage's wgmmas run, a wgmma wait with one group in flight), beside
# the example. The safety gate cannot prove this schedule yet (see
# README.md), so it is compiled with -fno-gates=safety; the run's
# compute-sanitizer pass is its check. Here:
#   bash bench/results/issue37_2026-12-06b/gen_dbl.sh
# then on the device, carrying harness/fp8/generated:
#   OUT=$OUT GEN=harness/fp8/generated/i37c bash bench/results/issue37_2026-12-06b/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/forms.sh harness/fp8/generated/i37c <<'FORMS'
gemm_fp8_blockscaled_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake
gemm_fp8_blockscaled_dbl_e4m3 -I . bench/results/issue37_2026-12-06b/blockscaled_dbl_unrolled.cake -fno-gates=safety
vector_loads testsuite/codegen/Inputs/vector_loads.cake --target=sm_90a
vector_stores testsuite/codegen/Inputs/vector_stores.cake --target=sm_90a
first_rows testsuite/codegen/Inputs/first_rows.cake --target=sm_90a
FORMS
