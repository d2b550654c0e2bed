#!/usr/bin/env bash
# The family run of 2026-12-01 (issue 17), one device call:
#   here:   cakec examples/gemm_bf16_family_sm90a.cake -o harness/gemm/generated/gemm_bf16_family_sm90a.cu
#           cakec -I examples bench/results/gemm_family_2026-12-01/family_tiled_sm90a.cake \
#                 -o harness/gemm/generated/gemm_bf16_family_tiled_sm90a.cu
#   device: bash bench/results/gemm_family_2026-12-01/run.sh   (carry harness/gemm/generated)
# The dispatcher gemm_bf16_launch picks the route per shape (the harness
# prints it and times that route's kernel beside cuBLAS); the sanitizers run
# a decode shape, a ragged persistent one, and a decode shape of two tile rows.
# The variant (M > 128 on the one-tile-per-block schedule) is timed only.
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_family_2026-12-01
st=0
SHAPES=@$D/shapes.txt SAN_SHAPES="13 1120 1024 777 1536 520 100 560 4096" NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY \
  bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_family_sm90a.cu || st=1
SHAPES=@$D/shapes.txt SANITIZE=0 NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY \
  bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_family_tiled_sm90a.cu || st=1
exit $st
