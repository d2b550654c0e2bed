#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): split-K with its partials added in turn
# through a flag per tile (examples/gemm_bf16_splitk_sm90a.cake
# -DSERIAL=True, lm.wait_flag), beside the example's default (the last
# block adds every partial); the serial form under -fcheck-waits; and a
# broken serial form (the turn passed on with the block's own index, so the
# second block of a tile waits for ever), which the gate rejects
# (safety.cross-block-flag) and -fno-gates lowers with -fcheck-waits, for
# the GPU's verdict. Built into harness/gemm/generated/f/bin.
#   bash bench/results/flag_2026-12-07/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/f
mkdir -p $G/bin
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -DSERIAL=True -o $G/serial.cu
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -o $G/lastblock.cu
$CAKEC -I . examples/gemm_bf16_splitk_sm90a.cake -DSERIAL=True -fcheck-waits -o $G/serial_cw.cu
sed 's/value=lm.block_id(2) + 1, op="exch", order="release")/value=lm.block_id(2), op="exch", order="release")/' \
  examples/gemm_bf16_splitk_sm90a.cake > $G/broken.cake
grep -q 'value=lm.block_id(2), op="exch"' $G/broken.cake
if $CAKEC -I examples $G/broken.cake -DSERIAL=True -fsyntax-only 2> $G/broken.gate.txt; then
  echo "the gate accepted the broken form" >&2; exit 1
fi
grep -q "safety.cross-block-flag" $G/broken.gate.txt
$CAKEC -I examples $G/broken.cake -DSERIAL=True -fno-gates=safety -fcheck-waits -o $G/broken_cw.cu
for k in serial lastblock serial_cw broken_cw; do
  bash harness/gemm/build.sh $G/$k.cu gemm_bf16_splitk -DWORKSPACE -o $G/bin/$k &
done
wait
grep -h -A2 "entry function" $G/bin/*.log | grep -E "spill|registers" | sort | uniq -c
