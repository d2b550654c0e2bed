#!/usr/bin/env bash
# Softmax over rows of 32768 (issue 35's bar: 0.90 of the copy rate; the
# 8-warp form ran at 0.77 of the H200's copy rate on 2026-12-02): 8 and 16
# warps per row of examples/softmax_sm90a.cake. (The forms with two blocks
# per SM, RECOMPUTE and BLOCKS, ran on an H100 on 2026-12-06 at commit
# 56b671b and lost: README.md; the example no longer has them.) Here (cakec built):
#   bash bench/results/softmax_long_2026-12-06/gen.sh
# then on the device, carrying harness/rows/generated:
#   OUT=$OUT bash bench/results/softmax_long_2026-12-06/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/rows/softmax_forms.sh harness/rows/generated/sweep <<'FORMS'
w8 -DWARPS=8 -DSPLIT=8                                     # the form measured before
w16 -DWARPS=16 -DSPLIT=16                                  # twice the warps, one block per SM
FORMS
