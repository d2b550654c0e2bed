#!/usr/bin/env bash
# Builds (here, no GPU) the 4-stage variants and the example beside them.
#   CAKEC=build-test/bin/cakec bash bench/results/gemm_stages4_2026-12-01/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
V=bench/results/gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake
"$CAKEC" examples/gemm_bf16_sm90a.cake -o $G/tiled.cu
"$CAKEC" -DPENDING=0 $V -o $G/s4p0.cu
"$CAKEC" -DPENDING=1 $V -o $G/s4p1.cu
for n in tiled s4p0 s4p1; do
  bash harness/gemm/build.sh $G/$n.cu gemm_bf16 &
done
wait
grep -A1 "for gemm_bf16" $G/bin/*.log | grep spill
