#!/usr/bin/env bash
# bench/results/multistage_2026-12-07/gen.sh: generates and builds (here, no
# GPU) what run.sh runs: the multistage sm_80 GEMM (one role, next stage's
# cp.async between the wait and the mma.sync) at 4 and 3 stages, and the
# warp-specialized sm_80 GEMM beside it, each compiled for sm_90a.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/multistage_2026-12-07
CAKEC=${CAKEC:-build-test/bin/cakec} bash harness/gemm/variants.sh $D/variants_ms.txt gemm_bf16_multistage_sm80
CAKEC=${CAKEC:-build-test/bin/cakec} bash harness/gemm/variants.sh $D/variants_ws.txt gemm_bf16_sm80
