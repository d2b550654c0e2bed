#!/usr/bin/env bash
# The persistent GEMM with declared shapes (issue 17, item 1), H200,
# 2026-12-01: the standard shapes and ragged ones beside cuBLAS (CUPTI, L2
# flushed, median of 120), then compute-sanitizer at ragged shapes. One call:
#   cakec examples/gemm_bf16_persistent_sm90a.cake -o harness/gemm/generated/gemm_bf16_persistent_sm90a.cu
#   device: bash bench/results/gemm_persistent_ragged_2026-12-01/run.sh  (carry harness/gemm/generated)
set -uo pipefail
cd "$(dirname "$0")/../../.."
SHAPES=@bench/results/gemm_ragged_decode_2026-12-01/shapes_large.txt SAN_SHAPES="200 304 136 777 1536 520" \
  NAME=gemm_bf16 bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_persistent_sm90a.cu
