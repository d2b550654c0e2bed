#!/usr/bin/env bash
# The cluster ping-pong against the family on the family's shapes with M > 128
# (one device call, after gen.sh and
#   cakec examples/gemm_bf16_family_sm90a.cake -o harness/gemm/generated/gemm_bf16_family_sm90a.cu):
#   device: bash bench/results/gemm_pingpong_2026-12-01/sweep.sh   (carry harness/gemm/generated)
# Sanitizers on the ping-pong kernels at shapes where every block has several
# tiles (both consumers work): 2048x2304x256, ragged 2056x2312x264, and 256x512x128.
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_pingpong_2026-12-01
G=harness/gemm/generated
st=0
for v in ppc_128x128_s5 pp_128x128_s5; do
  SHAPES=@$D/family_shapes.txt SAN_SHAPES="2048 2304 256 2056 2312 264 256 512 128" NAME=gemm_bf16 \
    bash harness/gemm/run.sh $G/gemm_$v.cu || st=1
done
SHAPES=@$D/family_shapes.txt SANITIZE=0 NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY \
  bash harness/gemm/run.sh $G/gemm_bf16_family_sm90a.cu || st=1
exit $st
