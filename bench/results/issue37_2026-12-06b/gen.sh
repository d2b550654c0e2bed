#!/usr/bin/env bash
# Block-scaled fp8 GEMM schedules (issue 37), here (cakec built):
#   bash bench/results/issue37_2026-12-06b/gen.sh
# then on the device, carrying harness/fp8/generated:
#   OUT=$OUT bash bench/results/issue37_2026-12-06b/run.sh
# Forms: the example as committed (since round 1, the scales are read before
# the wgmma wait: round 1's form "h", then a file of its own, is the
# example's now); that, with each tile's C stored after its own
# K loop instead of under the next tile's wgmmas (blockscaled_noout.cake:
# no `out` registers); the per-tensor promoted schedule for reference.
# Second round (after the first run: the C store after the K loop cost 10-15%
# in quarters): the whole tile of C staged in shared memory and stored by one
# TMA store that the next tile's K loop hides (blockscaled_smemc.cake, 5
# stages), the same with three math warpgroups (blockscaled_wg3_smemc.cake,
# 192 x 128 tiles, 4 stages: B is read by three warpgroups per stage instead
# of two, so a stage holds more multiply-adds per byte read), and three
# warpgroups storing quarters under the next tile
# (blockscaled_wg3_quarters.cake: 64 bytes of spills at 160 registers).
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/forms.sh harness/fp8/generated/i37b <<'FORMS'
gemm_fp8_blockscaled_e4m3 -I . examples/gemm_fp8_blockscaled_sm90a.cake
gemm_fp8_blockscaled_nout_e4m3 -I . bench/results/issue37_2026-12-06b/blockscaled_noout.cake
gemm_fp8_blockscaled_smemc_e4m3 -I . bench/results/issue37_2026-12-06b/blockscaled_smemc.cake
gemm_fp8_blockscaled_wg3smemc_e4m3 -I . bench/results/issue37_2026-12-06b/blockscaled_wg3_smemc.cake
gemm_fp8_blockscaled_wg3q_e4m3 -I . bench/results/issue37_2026-12-06b/blockscaled_wg3_quarters.cake
gemm_fp8_promote1_e4m3 -I . examples/gemm_fp8_sm90a.cake -DBN=128 -DSTAGES=6 -DPROMOTE=True -DPROMOTE_EVERY=1
vector_loads testsuite/codegen/Inputs/vector_loads.cake --target=sm_90a
vector_stores testsuite/codegen/Inputs/vector_stores.cake --target=sm_90a
first_rows testsuite/codegen/Inputs/first_rows.cake --target=sm_90a
FORMS
