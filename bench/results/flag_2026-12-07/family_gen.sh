#!/usr/bin/env bash
# Here: the GEMM family as committed, and with its 128x128 split-K routes
# (splitk, splitk_pair) taken by split-K in turn (SERIAL=True, no clusters),
# for run.sh's second part (FAMILY=1). Built into harness/gemm/generated/f/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/f
mkdir -p $G/bin
$CAKEC -I examples examples/gemm_bf16_family_sm90a.cake -o $G/family.cu
sed 's/^splitk_pair = cake.instantiate("gemm_bf16_splitk_sm90a", CM=2).*$/splitk_pair = cake.instantiate("gemm_bf16_splitk_sm90a", SERIAL=True)\nsplitk_serial = splitk_pair/; s/lm.route(splitk, when=/lm.route(splitk_serial.gemm_bf16_splitk, when=/' \
  examples/gemm_bf16_family_sm90a.cake > $G/family_serial.cake
grep -c "splitk_serial.gemm_bf16_splitk\|SERIAL=True" $G/family_serial.cake
$CAKEC -I examples $G/family_serial.cake -o $G/family_serial.cu
for k in family family_serial; do
  bash harness/gemm/build.sh $G/$k.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/$k &
done
wait
