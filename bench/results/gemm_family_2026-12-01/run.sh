#!/usr/bin/env bash
# The family run of 2026-12-01 (issue 17), one device call:
#   here:   cakec examples/gemm_bf16_family_sm90a.cake -o harness/gemm/generated/gemm_bf16_family_sm90a.cu
#   device: bash bench/results/gemm_family_2026-12-01/run.sh   (carry harness/gemm/generated)
# The dispatcher gemm_bf16_launch picks the route per shape (the harness
# prints it and times that route's kernel beside cuBLAS): the list the
# routes were chosen on (shapes.txt), with compute-sanitizer on a shape of
# each route but the large one-tile schedule (decode, decode128, small,
# persistent), then the held-out shapes (heldout.txt), timed only.
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_family_2026-12-01
st=0
SHAPES=@$D/shapes.txt SAN_SHAPES="13 1120 1024 100 560 4096 777 1536 520 1100 1536 512" NAME=gemm_bf16 \
  HARNESS_FLAGS=-DFAMILY bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_family_sm90a.cu || st=1
SHAPES=@$D/heldout.txt SANITIZE=0 NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY \
  bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_family_sm90a.cu || st=1
exit $st
