#!/usr/bin/env bash
# The family run of 2026-12-01 (issue 17), one device call:
#   here:   build-test/bin/cakec examples/gemm_bf16_family_sm90a.cake -o harness/gemm/generated/gemm_bf16_family_sm90a.cu
#           bash harness/gemm/build.sh harness/gemm/generated/gemm_bf16_family_sm90a.cu gemm_bf16 -DFAMILY
#   device: bash bench/results/gemm_family_routes_2026-12-01/run.sh   (carry harness/gemm/generated)
# The list the routes were chosen on (shapes.txt: the same list as
# gemm_family_2026-12-01), with compute-sanitizer on a shape of every route
# (cut boxes included: M = 13 and 100, N = 24); the shapes that cut boxes
# (cuts.txt) and the held-out shapes (heldout.txt), timed only. FLOOR=1 on
# the list: the time to read B alone, after the same flush, beside each shape.
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/gemm_family_routes_2026-12-01
G=harness/gemm/generated/gemm_bf16_family_sm90a.cu
export PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY
st=0
FLOOR=1 SHAPES=@$D/shapes.txt SAN_SHAPES="13 1120 1024 100 560 4096 200 24 136 1000 1000 1000 777 1536 520 2056 2312 264 1100 1536 512 3000 512 4096" \
  bash harness/gemm/run.sh $G || st=1
SHAPES=@$D/cuts.txt SANITIZE=0 bash harness/gemm/run.sh $G || st=1
SHAPES=@$D/heldout.txt SANITIZE=0 bash harness/gemm/run.sh $G || st=1
exit $st
