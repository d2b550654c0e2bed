#!/usr/bin/env bash
# Generates the variants run.sh times (here, not on the device machine).
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G
$C examples/gemm_bf16_pingpong_sm90a.cake -o $G/gemm_pp_128x128_s5.cu
$C examples/gemm_bf16_pingpong_sm90a.cake -DSTAGES=4 -o $G/gemm_pp_128x128_s4.cu
$C examples/gemm_bf16_pingpong_sm90a.cake -DBM=64 -DBN=256 -DSTAGES=4 -o $G/gemm_pp_64x256_s4.cu
$C examples/gemm_bf16_sm90a.cake -o $G/gemm_tiled.cu
$C examples/gemm_bf16_persistent_sm90a.cake -o $G/gemm_persistent.cu
$C examples/gemm_bf16_pingpong_cluster_sm90a.cake -o $G/gemm_ppc_128x128_s5.cu
$C examples/gemm_bf16_pingpong_cluster_sm90a.cake -DSTAGES=4 -o $G/gemm_ppc_128x128_s4.cu
$C bench/results/gemm_pingpong_2026-12-01/variants/ppc_shared_c.cake -o $G/gemm_ppcs_128x128_s6.cu
$C examples/gemm_bf16_pingpong_cluster_sm90a.cake -DGROUP_M=4 -o $G/gemm_ppc_128x128_s5_g4.cu
$C examples/gemm_bf16_pingpong_cluster_sm90a.cake -DGROUP_M=16 -o $G/gemm_ppc_128x128_s5_g16.cu
$C bench/results/gemm_pingpong_2026-12-01/variants/ppc_shared_c_thread_arrive.cake -o $G/gemm_ppcst.cu
$C bench/results/gemm_pingpong_2026-12-01/variants/ppc2x2.cake -o $G/gemm_ppc2x2.cu
