#!/usr/bin/env bash
# Softmax over rows of 32768 staged through shared memory (issue 35's bar:
# 0.90 of the copy rate; the register form ran at 0.77-0.80 of the H200's
# on 2026-12-06): examples/softmax_sm90a.cake with STAGED=True (cp.async of
# the whole row in stages of CHUNK columns, view.load in the rows layout,
# BLOCKS blocks per multiprocessor), beside the register form. Here (cakec
# built):
#   bash bench/results/softmax_staged_2026-12-06/gen.sh
# then on the device, carrying harness/rows/generated:
#   OUT=$OUT bash bench/results/softmax_staged_2026-12-06/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash harness/rows/softmax_forms.sh harness/rows/generated/staged <<'FORMS'
w8 -DWARPS=8 -DSPLIT=8                                                       # the register form
w16 -DWARPS=16 -DSPLIT=16                                                    # the register form, 16 warps
s8b3 -DWARPS=8 -DSPLIT=8 -DSTAGED=True -DCHUNK=2048 -DBLOCKS=3               # staged, 3 blocks per SM
s8b2 -DWARPS=8 -DSPLIT=8 -DSTAGED=True -DCHUNK=2048 -DBLOCKS=2               # staged, 2 blocks per SM
s16b3 -DWARPS=16 -DSPLIT=16 -DSTAGED=True -DCHUNK=4096 -DBLOCKS=3            # staged, 16 warps
s4b3 -DWARPS=4 -DSPLIT=4 -DSTAGED=True -DCHUNK=1024 -DBLOCKS=3               # staged, 4 warps
s8b3c4 -DWARPS=8 -DSPLIT=8 -DSTAGED=True -DCHUNK=4096 -DBLOCKS=3             # staged, 8 stages of 4096
FORMS
