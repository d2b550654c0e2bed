#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after
#   CAKEC=build-test/bin/cakec bash harness/gemm/variants.sh bench/results/gemm_stages4_2026-12-01/variants.txt
# the example and the two 4-stage variants at the five shapes of issue 19,
# each beside cuBLAS in its own process; compute-sanitizer on the variants.
cd "$(dirname "$0")/../../.." || exit 2
G=harness/gemm/generated
PREBUILT=$G/bin SHAPES=@harness/gemm/shapes/large5.txt SANITIZE="s4p0 s4p1" SAN_SHAPES="256 512 128 200 304 136 512 768 2048" \
  exec bash harness/gemm/run.sh $G/tiled.cu $G/s4p0.cu $G/s4p1.cu
