#!/usr/bin/env bash
# Builds (here, no GPU) the 1x2-cluster variant (A multicast) beside the
# family's small route, for the mid-size shapes.
#   CAKEC=build-test/bin/cakec bash bench/results/gemm_cluster_small_2026-12-01/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
V=examples/gemm_bf16_cluster_n_sm90a.cake
"$CAKEC" examples/gemm_bf16_sm90a.cake -DBN=128 -DSTAGES=5 -o $G/small128.cu
"$CAKEC" -DSTAGES=8 $V -o $G/cn64s8.cu
"$CAKEC" $V -o $G/cn64s4.cu
"$CAKEC" -DBN=128 -DSTAGES=5 $V -o $G/cn128s5.cu
for n in small128 cn64s8 cn64s4 cn128s5; do
  bash harness/gemm/build.sh $G/$n.cu gemm_bf16 &
  [ "$n" = cn64s8 ] && wait
done
wait
grep -A1 "for gemm_bf16" $G/bin/{small128,cn64s8,cn64s4,cn128s5}.log | grep spill
