#!/usr/bin/env bash
# bench/results/multistage_2026-12-07/run.sh: on the device (carry
# harness/gemm/generated, after gen.sh here): each variant correct against
# the harness's reference and timed beside cuBLAS in its process (CUPTI, L2
# flushed, median of the harness's samples), then compute-sanitizer
# memcheck, racecheck and synccheck on our kernel alone at 256x128x96 (K at
# its least: three stages) and 512x256x2048.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/multistage}
mkdir -p "$OUT"
G=harness/gemm/generated
export SHAPES="2048x2048x2048 4096x4096x4096 8192x8192x4096 4096x4096x1024 2048x2048x8192"
export SAN_SHAPES="256 128 96 512 256 2048"
f() { grep -E "^== |^[0-9]+x|geometric|CORRECT|INCORRECT|exit|SUMMARY"; }
OUT=$OUT/ms PREBUILT=$G/bin NAME=gemm_bf16_multistage_sm80 timeout 280 bash harness/gemm/run.sh $G/ms4.cu $G/ms3.cu 2>&1 | f
OUT=$OUT/ws PREBUILT=$G/bin NAME=gemm_bf16_sm80 SANITIZE=0 timeout 120 bash harness/gemm/run.sh $G/ws4.cu 2>&1 | f
