#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): one-tile schedules in 2-block clusters (B
# shared along M: examples/gemm_bf16_cluster_n_sm90a.cake -DCM=2, which call 1
# ran as bench/variants/gemm_bf16_cluster_m_sm90a.cake, the same generated
# code; A shared along N: the same example's default) with 128x192, 128x144 and
# 128x128 tiles beside the family's 128x192 route (`wide`), and split-K in
# clusters of two M-tiles with 128x192 / 128x256 tiles or two waves of blocks,
# beside the family's `splitk_pair`, and 64x128 split-K tiles in pairs beside
# the family's 64x64 ones (`splitk64_pair`) for M <= 128; built into harness/gemm/generated/d/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/d
mkdir -p $G/bin
V=examples/gemm_bf16_cluster_n_sm90a.cake
S=examples/gemm_bf16_splitk_sm90a.cake
while read -r name kernel src flags; do
  # shellcheck disable=SC2086  # the flags are separate arguments
  $CAKEC -I examples "$src" $flags -o $G/$name.cu
done <<FORMS
w192 gemm_bf16 examples/gemm_bf16_sm90a.cake -DBN=192 -DSTAGES=4
cm192 gemm_bf16 $V -DCM=2 -DBN=192
cm144 gemm_bf16 $V -DCM=2 -DBN=144 -DSTAGES=5
cm128 gemm_bf16 $V -DCM=2 -DBN=128 -DSTAGES=5
cn192 gemm_bf16 $V -DBN=192
skp gemm_bf16_splitk $S -DCM=2
skp192 gemm_bf16_splitk $S -DCM=2 -DBN=192 -DSTAGES=4
skp256 gemm_bf16_splitk $S -DCM=2 -DBN=256 -DSTAGES=3
skp264 gemm_bf16_splitk $S -DCM=2 -DSMS=264
sk64w gemm_bf16_splitk $S -DCM=2 -DBM=64 -DBN=128 -DSTAGES=8 -DSPLIT=8
sk64 gemm_bf16_splitk $S -DCM=2 -DBM=64 -DBN=64 -DSTAGES=12 -DSPLIT=4
FORMS
for n in w192 cm192 cm144 cm128 cn192; do bash harness/gemm/build.sh $G/$n.cu gemm_bf16 -o $G/bin/$n; done
for n in skp skp192 skp256 skp264 sk64w sk64; do bash harness/gemm/build.sh $G/$n.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/$n; done
grep -H -A2 "entry function" $G/bin/*.log | grep -E "spill|registers"
du -sh $G/bin
