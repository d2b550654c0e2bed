#!/usr/bin/env bash
# Unswizzled tensor-core operands on the H200 (2026-12-01): the core-matrix
# layout (16-byte panels, one TMA box each) and the no-swizzle descriptors,
# K-major A and B, and an MN-major B read from a K x N tensor. The same
# layout and byte offsets feed tcgen05 on sm_100a (examples/mandatory_forms.cake),
# which no lent GPU runs; wgmma on sm_90a checks them here. One device call:
#   cakec bench/variants/gemm_bf16_noswizzle_sm90a.cake -o harness/gemm/generated/gemm_bf16_noswizzle_sm90a.cu
#   cakec bench/variants/gemm_bf16_bkn_sm90a.cake -o harness/gemm/generated/gemm_bf16_bkn_sm90a.cu
#   device: bash bench/results/core_matrices_2026-12-01/run.sh  (carry harness/gemm/generated)
set -uo pipefail
cd "$(dirname "$0")/../../.."
st=0
SHAPES="4096x4096x4096 200x304x136 1000x1000x1000 777x1536x520 256x512x128" SAN_SHAPES="200 304 136 256 512 2048" \
  NAME=gemm_bf16_noswizzle bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_noswizzle_sm90a.cu || st=1
SHAPES="4096x4096x4096 200x304x136 1000x1000x1000 777x1536x520 256x512x128" SAN_SHAPES="200 304 136 256 512 2048" \
  HARNESS_FLAGS=-DB_KN NAME=gemm_bf16_bkn bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_bkn_sm90a.cu || st=1
exit $st
