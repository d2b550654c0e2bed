#!/usr/bin/env bash
# The two ping-pong examples as committed, on issue 19's five shapes, with
# compute-sanitizer where both consumers of every block work (one device call):
#   here:   bash bench/results/gemm_pingpong_2026-12-01/gen.sh
#   device: bash bench/results/gemm_pingpong_2026-12-01/final.sh   (carry harness/gemm/generated)
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_pingpong_2026-12-01
st=0
for v in ppc_128x128_s5 pp_128x128_s5; do
  SHAPES=@$D/issue19_shapes.txt SAN_SHAPES="2048 2304 256 2056 2312 264 256 512 128" NAME=gemm_bf16 \
    bash harness/gemm/run.sh harness/gemm/generated/gemm_$v.cu || st=1
done
exit $st
