#!/usr/bin/env bash
# bench/results/attention_sm80_2026-12-07/gen.sh: generates (here, no GPU)
# the FlashAttention-2-form attention forward for sm_80 and its interface,
# one folder per variant (the launcher keeps the schedule's name), which
# run.sh builds for sm_90a and runs on the device.
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=${CAKEC:-build-test/bin/cakec}
G=harness/attention/generated
while read -r name flags; do
  case $name in '' | '#'*) continue ;; esac
  mkdir -p $G/$name
  # shellcheck disable=SC2086  # the flags are separate arguments
  "$C" examples/attention_fwd_sm80.cake $flags -o $G/$name/attention_fwd_sm80.cu
  # shellcheck disable=SC2086
  "$C" examples/attention_fwd_sm80.cake $flags --emit=interface -o $G/$name/attention_fwd_sm80.json
done <<'LIST'
w8n64 -DWARPS=8 -DBN=64
w8n128 -DWARPS=8 -DBN=128
w4n32 -DWARPS=4 -DBN=32
LIST
