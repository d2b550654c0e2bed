#!/usr/bin/env bash
# Builds (here, no GPU) the persistent example and three instances of it:
# 256x128 tiles (each consumer warpgroup two m64 blocks), and tile groups of
# 4 and 16 rows instead of 8.
#   CAKEC=build-test/bin/cakec bash bench/results/gemm_persistent_tiles_2026-12-01/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
E=examples/gemm_bf16_persistent_sm90a.cake
"$CAKEC" $E -o $G/pers.cu
"$CAKEC" -DBM=256 -DBN=128 $E -o $G/pers_256x128.cu
"$CAKEC" -DGROUP_M=4 $E -o $G/pers_g4.cu
"$CAKEC" -DGROUP_M=16 $E -o $G/pers_g16.cu
for n in pers pers_256x128 pers_g4 pers_g16; do
  bash harness/gemm/build.sh $G/$n.cu gemm_bf16 &
  [ "$n" = pers_256x128 ] && wait
done
wait
grep -A1 "for gemm_bf16" $G/bin/pers*.log | grep spill
