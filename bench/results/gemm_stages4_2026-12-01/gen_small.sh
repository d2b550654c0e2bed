#!/usr/bin/env bash
# Builds (here) the staging-over-ring variant as small-shape candidates for
# the family's `small` route: 128x128 tiles with 6 stages and 128x64 tiles
# with 8, each with and without one wgmma group in flight.
#   CAKEC=build-test/bin/cakec bash bench/results/gemm_stages4_2026-12-01/gen_small.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
V=bench/results/gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake
"$CAKEC" examples/gemm_bf16_sm90a.cake -DBN=128 -DSTAGES=5 -o $G/small128.cu
for p in 0 1; do
  "$CAKEC" -DBN=128 -DSTAGES=6 -DPENDING=$p $V -o $G/n128s6p$p.cu
  "$CAKEC" -DBN=64 -DSTAGES=8 -DPENDING=$p $V -o $G/n64s8p$p.cu
done
for n in small128 n128s6p0 n128s6p1 n64s8p0 n64s8p1; do
  bash harness/gemm/build.sh $G/$n.cu gemm_bf16 &
  [ "$n" = n128s6p1 ] && wait
done
wait
grep -A1 "for gemm_bf16" $G/bin/*.log | grep spill
