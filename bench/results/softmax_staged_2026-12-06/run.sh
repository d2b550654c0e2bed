#!/usr/bin/env bash
# The device side of gen.sh: builds each form, checks and times them in one
# process (harness/rows/rows_bench.py: beside PyTorch eager, torch.compile
# and a copy of as many bytes; CUPTI, L2 flushed, median of SAMPLES), then
# compute-sanitizer on the staged form s8b3 (softmax_long's run.sh over
# this sweep's forms).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
GEN=harness/rows/generated/staged SAN_TAG=s8b3 OUT=${OUT:-/tmp/softmax_staged} \
  exec bash bench/results/softmax_long_2026-12-06/run.sh
