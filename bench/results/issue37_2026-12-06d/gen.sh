#!/usr/bin/env bash
# Issue 37, 2026-12-06d: fp8 register tiles stored into shared memory (the
# piece FA3's fp8 P . V needs when P goes through shared memory): the kernel
# of testsuite/codegen/Inputs/fp8_view_store.cake, built here (cakec + nvcc,
# no GPU) into harness/fp8/generated/store, with the fp8 attention forward of
# testsuite/codegen/Inputs/attention_fwd_fp8.cake; run.sh runs them on the
# device.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/fp8/generated/store
mkdir -p $G
$CAKEC testsuite/codegen/Inputs/fp8_view_store.cake --target=sm_90a -o $G/fp8_view_store.cu
$CAKEC testsuite/codegen/Inputs/fp8_view_store.cake --target=sm_90a --emit=interface -o $G/fp8_view_store.json
/usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared \
  -o $G/fp8_view_store.so $G/fp8_view_store.cu
A=testsuite/codegen/Inputs/attention_fwd_fp8.cake
$CAKEC $A --target=sm_90a -o $G/attention_fwd_fp8.cu
$CAKEC $A --target=sm_90a --emit=interface -o $G/attention_fwd_fp8.json
/usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared \
  -o $G/attention_fwd_fp8.so $G/attention_fwd_fp8.cu
