#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after gen.sh: the family's
# small route and the cluster variants on the list's mid-size shapes, each
# beside cuBLAS in its own process; sanitizers on the variants at ragged shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16
MID="1000x1000x1000 777x1536x520 256x512x128 200x304x136 4095x4104x4088"
st=0
SHAPES="$MID" SANITIZE=0 bash harness/gemm/run.sh harness/gemm/generated/small128.cu || st=1
SHAPES="$MID" SAN_SHAPES="200 304 136 1000 1000 1000" bash harness/gemm/run.sh harness/gemm/generated/{cn64s8,cn64s4,cn128s5}.cu || st=1
exit $st
