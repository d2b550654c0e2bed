#!/usr/bin/env bash
# Here: the three guarded copy-ahead forms of bench/results/safety_ahead_2026-12-06
# with X declared exactly as wide as they read (2048 columns; the launcher
# bounded the guarded copy over its loop's whole range and refused that
# before 2026-12-06), generated into generated/ here.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p generated
for f in ahead2_ring8 ahead4_ring4 ahead3_before_wait; do
  sed -E 's/X: LM.tensor2d\[4, [0-9]+\]/X: LM.tensor2d[4, 2048]/' "../safety_ahead_2026-12-06/$f.cake" > "generated/$f.cake"
  grep -q 'X: LM.tensor2d\[4, 2048\]' "generated/$f.cake"
  ../../../build-test/bin/cakec --target=sm_90a "generated/$f.cake" -o "generated/$f.cu"
done
