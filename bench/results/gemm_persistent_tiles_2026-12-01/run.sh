#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after gen.sh: each at the
# five shapes of issue 19 beside cuBLAS; sanitizers on the 256x128 instance.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16
FIVE="4096x4096x4096 8192x8192x8192 4096x7168x4096 4096x4096x1024 8192x8192x2048"
st=0
SHAPES="$FIVE" SANITIZE=0 bash harness/gemm/run.sh harness/gemm/generated/{pers,pers_g4,pers_g16}.cu || st=1
SHAPES="$FIVE" SAN_SHAPES="256 512 128 1100 1536 512" bash harness/gemm/run.sh harness/gemm/generated/pers_256x128.cu || st=1
exit $st
