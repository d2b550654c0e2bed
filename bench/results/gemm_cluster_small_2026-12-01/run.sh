#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after
#   CAKEC=build-test/bin/cakec bash harness/gemm/variants.sh bench/results/gemm_cluster_small_2026-12-01/variants.txt
# the family's small route and the cluster variants on the list's mid-size
# shapes, each beside cuBLAS in its own process; sanitizers on the variants
# at ragged shapes (N rounded up to whole clusters).
cd "$(dirname "$0")/../../.." || exit 2
G=harness/gemm/generated
PREBUILT=$G/bin SHAPES="1000x1000x1000 777x1536x520 256x512x128 200x304x136 4095x4104x4088" \
  SANITIZE="cn64s8 cn64s4 cn128s5" SAN_SHAPES="200 304 136 1000 1000 1000" \
  exec bash harness/gemm/run.sh $G/{small128,cn64s8,cn64s4,cn128s5}.cu
