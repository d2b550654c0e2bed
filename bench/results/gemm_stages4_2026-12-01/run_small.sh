#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after variants.sh (run.sh):
# the family's `small` route (128x128, 5 stages) beside the candidates, on
# the list's mid-size shapes (timing only).
cd "$(dirname "$0")/../../.." || exit 2
G=harness/gemm/generated
PREBUILT=$G/bin SHAPES="1000x1000x1000 777x1536x520 256x512x128 4095x4104x4088" SANITIZE=0 \
  exec bash harness/gemm/run.sh $G/{small128,n128s6p0,n128s6p1,n64s8p0,n64s8p1}.cu
