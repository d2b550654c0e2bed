#!/usr/bin/env bash
# Block-scaled fp8 GEMM, the weight's scale read once (issue 37):
# examples/gemm_fp8_blockscaled_sm90a.cake (B_SCALE_ONE=True: the block's
# one scale, view.load(shape=(1, 1))) and with -DB_SCALE_ONE=False (SB's row
# as 32 columns per thread, two multiplies per element), beside the same
# schedule without scales (per tensor, promoted every stage). Here (cakec
# built):
#   bash bench/results/issue37_2026-12-06/gen.sh
# then on the device, carrying harness/fp8/generated:
#   OUT=$OUT GEN=harness/fp8/generated/i37 bash harness/fp8/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/forms.sh harness/fp8/generated/i37 <<'FORMS'
gemm_fp8_blockscaled_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake
gemm_fp8_blockscaled_cols_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake -DB_SCALE_ONE=False
gemm_fp8_promote1_e4m3 -I . examples/gemm_fp8_sm90a.cake -DBN=128 -DSTAGES=6 -DPROMOTE=True -DPROMOTE_EVERY=1
vector_loads testsuite/codegen/Inputs/vector_loads.cake --target=sm_90a
vector_stores testsuite/codegen/Inputs/vector_stores.cake --target=sm_90a
first_rows testsuite/codegen/Inputs/first_rows.cake --target=sm_90a
FORMS
