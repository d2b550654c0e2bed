#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): one-tile schedules with one wgmma group in
# flight (bench/variants/gemm_bf16_pending1_sm90a.cake: mma_wait(pending=1),
# the previous stage released) beside the same tiles with pending=0
# (examples/gemm_bf16_sm90a.cake), at 128x192 (the family's `wide` route) and
# 128x128 (its `small` route; 6 stages do not fit beside C's tile), and
# split-K below, built into harness/gemm/generated/w/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/w
mkdir -p $G/bin
gen() {  # name file kernel defines...
  local n=$1 f=$2 k=$3 w=
  shift 3
  [ "$k" = gemm_bf16_splitk ] && w=-DWORKSPACE
  [ -x $G/bin/$n ] && [ $G/bin/$n -nt "$f" ] && return 0  # built already
  $CAKEC -I examples "$f" "$@" -o $G/$n.cu
  bash harness/gemm/build.sh $G/$n.cu "$k" $w -o $G/bin/$n
}
gen t192 examples/gemm_bf16_sm90a.cake gemm_bf16 -DBN=192 -DSTAGES=4 &
gen t192p1 bench/variants/gemm_bf16_pending1_sm90a.cake gemm_bf16_pending1 -DBN=192 -DSTAGES=4
wait
gen t128 examples/gemm_bf16_sm90a.cake gemm_bf16 -DBN=128 -DSTAGES=5 &
gen t128p1 bench/variants/gemm_bf16_pending1_sm90a.cake gemm_bf16_pending1 -DBN=128 -DSTAGES=5
wait
# split-K (gemm_bf16_splitk_pending.cake here: the example with -DPENDING):
# the family's splitk (128x128, 16 splits), splitk_pair (CM=2) and
# splitk64_pair (64x64, 4 splits, CM=2) routes, pending=0 and 1.
SK=bench/results/issue36_2026-12-06c/gemm_bf16_splitk_pending.cake
gen sk $SK gemm_bf16_splitk &
gen skp1 $SK gemm_bf16_splitk -DPENDING=1
wait
gen skpair $SK gemm_bf16_splitk -DCM=2 &
gen skpairp1 $SK gemm_bf16_splitk -DCM=2 -DPENDING=1
wait
gen sk64pair $SK gemm_bf16_splitk -DBM=64 -DBN=64 -DSTAGES=12 -DSPLIT=4 -DCM=2 &
gen sk64pairp1 $SK gemm_bf16_splitk -DBM=64 -DBN=64 -DSTAGES=12 -DSPLIT=4 -DCM=2 -DPENDING=1
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
