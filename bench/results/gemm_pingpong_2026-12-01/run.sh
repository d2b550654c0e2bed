#!/usr/bin/env bash
# Ping-pong GEMM on the H200, 2026-12-01 (issue 19). One device call:
#   here:   bash bench/results/gemm_pingpong_2026-12-01/gen.sh
#   device: bash bench/results/gemm_pingpong_2026-12-01/run.sh   (carry harness/gemm/generated)
# Each variant: correctness at every shape of shapes.txt, CUPTI timing beside
# cuBLAS in the same process (L2 flushed, median of 120); the ping-pong
# variants also under compute-sanitizer memcheck, racecheck and synccheck.
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_pingpong_2026-12-01
G=harness/gemm/generated
st=0
for v in ${VARIANTS:-pp_128x128_s5 pp_128x128_s4 pp_64x256_s4 tiled persistent}; do
  case $v in pp*) san=${SANITIZE:-1} ;; *) san=0 ;; esac
  SHAPES=@$D/shapes.txt SANITIZE=$san SAN_SHAPES="256 512 128 777 1536 520 512 768 2048" NAME=gemm_bf16 \
    bash harness/gemm/run.sh $G/gemm_$v.cu || st=1
done
exit $st
