#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after
#   CAKEC=build-test/bin/cakec bash harness/gemm/variants.sh bench/results/gemm_persistent_tiles_2026-12-01/variants.txt
# each at the five shapes of issue 19 beside cuBLAS; sanitizers on the
# 256x128 instance.
cd "$(dirname "$0")/../../.." || exit 2
G=harness/gemm/generated
PREBUILT=$G/bin SHAPES=@harness/gemm/shapes/large5.txt SANITIZE=pers_256x128 SAN_SHAPES="256 512 128 1100 1536 512" \
  exec bash harness/gemm/run.sh $G/{pers,pers_g4,pers_g16,pers_256x128}.cu
