#!/usr/bin/env bash
# Softmax over rows of 32768 (issue 35's bar: 0.90 of the copy rate; the
# 8-warp form ran at 0.77 on 2026-12-02): the forms of
# examples/softmax_sm90a.cake that may overlap one row's loads with
# another's arithmetic. Here (cakec built):
#   bash bench/results/softmax_long_2026-12-06/gen.sh
# then on the device, carrying harness/rows/generated:
#   OUT=$OUT bash bench/results/softmax_long_2026-12-06/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/rows/generated/sweep
rm -rf "$GEN" && mkdir -p "$GEN"
gen() {  # TAG OPTIONS...
  local tag=$1
  shift
  "$CAKEC" examples/softmax_sm90a.cake -DN=32768 "$@" -o "$GEN/$tag.cu"
  "$CAKEC" examples/softmax_sm90a.cake -DN=32768 "$@" --emit=interface -o "$GEN/$tag.json"
}
gen w8 -DWARPS=8 -DSPLIT=8                                     # the form measured before
gen w16 -DWARPS=16 -DSPLIT=16                                  # twice the warps, one block per SM
gen w16_b2 -DWARPS=16 -DSPLIT=16 -DBLOCKS=2                    # two blocks per SM (64 registers)
gen w16_rc_b2 -DWARPS=16 -DSPLIT=16 -DRECOMPUTE=True -DBLOCKS=2  # the bf16 row kept, exp2 twice
gen w8_rc_b2 -DWARPS=8 -DSPLIT=8 -DRECOMPUTE=True -DBLOCKS=2
gen w16_rc -DWARPS=16 -DSPLIT=16 -DRECOMPUTE=True
ls "$GEN"
