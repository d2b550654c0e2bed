#!/usr/bin/env bash
# The route sweep of 2026-12-01 (one device call; timing only, no sanitizers):
#   here:   for b in 0 1 2 3; do cakec -I examples -DBIG=$b bench/results/gemm_family_2026-12-01/family_sweep_sm90a.cake \
#             -o harness/gemm/generated/family_big$b.cu; done
#   device: bash bench/results/gemm_family_2026-12-01/sweep.sh   (carry harness/gemm/generated)
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_family_2026-12-01
st=0
for b in 0 1 2 3; do
  SHAPES=@$D/shapes.txt SANITIZE=0 NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY \
    bash harness/gemm/run.sh harness/gemm/generated/family_big$b.cu || st=1
done
exit $st
