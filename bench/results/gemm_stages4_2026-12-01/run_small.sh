#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after gen_small.sh: the
# family's `small` route (128x128, 5 stages) beside the candidates, on the
# list's mid-size shapes (timing only).
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16 SANITIZE=0
SHAPES="1000x1000x1000 777x1536x520 256x512x128 4095x4104x4088" \
  bash harness/gemm/run.sh harness/gemm/generated/{small128,n128s6p0,n128s6p1,n64s8p0,n64s8p1}.cu
