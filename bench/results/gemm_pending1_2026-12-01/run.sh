#!/usr/bin/env bash
# One wgmma group in flight (issue 19's first step), H200, 2026-12-01: the
# plain example and its pending=1 variant at issue 19's five shapes, each in
# its own process beside cuBLAS (CUPTI, L2 flushed, median of 120), and the
# variant under compute-sanitizer. One device call:
#   cakec examples/gemm_bf16_sm90a.cake -o harness/gemm/generated/gemm_bf16_sm90a.cu
#   cakec bench/variants/gemm_bf16_pending1_sm90a.cake -o harness/gemm/generated/gemm_bf16_pending1_sm90a.cu
#   device: bash bench/results/gemm_pending1_2026-12-01/run.sh  (carry harness/gemm/generated)
set -uo pipefail
cd "$(dirname "$0")/../../.."
st=0
S="4096x4096x4096 8192x8192x8192 4096x7168x4096 4096x4096x1024 8192x8192x2048"
SHAPES="$S" SANITIZE=0 NAME=gemm_bf16 bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_sm90a.cu || st=1
SHAPES="$S" NAME=gemm_bf16_pending1 bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_pending1_sm90a.cu || st=1
exit $st
