#!/usr/bin/env bash
# The device side of gen.sh (harness/fp8/generated carried). The scales are
# padded to 3072 rows (FP8_ROW_TILE): the launcher bounds the three-warpgroup
# form's rows by whole groups of 8 tile pairs of 384 rows; the bar's shape 4096x7168x16384 is
# added to the four of the issue.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
FP8_ROW_TILE=3072 GEN=${GEN:-harness/fp8/generated/i37b} SAMPLES=100 \
  SHAPES="4096x7168x4096,8192x8192x8192,4096x4096x4096,2048x7168x16384,4096x7168x16384" \
  exec bash harness/fp8/run.sh
