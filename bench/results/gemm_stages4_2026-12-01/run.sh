#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after gen.sh: the example
# and the two 4-stage variants at the five shapes of issue 19, each beside
# cuBLAS in its own process; compute-sanitizer on the variants.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16
FIVE="4096x4096x4096 8192x8192x8192 4096x7168x4096 4096x4096x1024 8192x8192x2048"
st=0
SHAPES="$FIVE" SANITIZE=0 bash harness/gemm/run.sh harness/gemm/generated/tiled.cu || st=1
SHAPES="$FIVE" SAN_SHAPES="256 512 128 200 304 136 512 768 2048" bash harness/gemm/run.sh harness/gemm/generated/s4p0.cu harness/gemm/generated/s4p1.cu || st=1
exit $st
