#!/usr/bin/env bash
# The copy-ahead schedules the safety gate accepts since 2026-12-06 (the
# single-role multistage cp.async loop and its drain), from
# testsuite/gates/safety/pass_prefetch_waits.cake, compiled here:
#   bash bench/results/safety_ahead_2026-12-06/gen.sh
# then on the device (carry ["bench/results/safety_ahead_2026-12-06/generated"]):
#   OUT=$OUT bash bench/results/safety_ahead_2026-12-06/run.sh
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p generated
for f in ahead2_ring8 ahead4_ring4 ahead3_before_wait ahead4_drain; do
  ../../../build-test/bin/cakec --target=sm_90a "$f.cake" -o "generated/$f.cu"
done
