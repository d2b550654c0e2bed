#!/usr/bin/env bash
# On the device, after gen.sh here (harness/gemm/generated/f carried):
#   OUT=$OUT bash bench/results/flag_2026-12-07/run.sh
# 1. split-K with its partials added in turn (lm.wait_flag): correct, 10
#    repeats bitwise identical, timed beside cuBLAS (the under-filled list,
#    ragged shapes, and 4096^3 where one block per tile needs no cooperative
#    launch), then compute-sanitizer; 2. the example's default (the last
#    block adds the partials) at the same shapes, timed; 3. the serial form
#    under -fcheck-waits, which must run as it is; 4. the broken form the
#    gate rejects, under -fcheck-waits with a 1 s budget: the GPU's verdict.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/f/bin NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE
G=harness/gemm/generated/f
OUT=${OUT:-/tmp/flag}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
EXTRA="100x1000x8192 128x256x16384 1000x3000x520 8x8x8 4096x4096x4096"
f() { grep -E "^ *[0-9]+x|geometric|repeats|CORRECT|FAIL|WRONG|ERROR SUMMARY|RACECHECK SUMMARY|error|hang"; }
SHAPES="$UNDER $EXTRA" REPEATS=10 SAN_SHAPES="256 512 4096 100 1000 8192" OUT=$OUT/serial \
  timeout 240 bash harness/gemm/run.sh $G/serial.cu 2>&1 | f
SHAPES="$UNDER $EXTRA" SANITIZE=0 OUT=$OUT/lastblock timeout 120 bash harness/gemm/run.sh $G/lastblock.cu 2>&1 | f
SHAPES="256x512x4096 2048x2048x8192 100x1000x8192" REPEATS=2 SANITIZE=0 OUT=$OUT/cw \
  timeout 60 bash harness/gemm/run.sh $G/serial_cw.cu 2>&1 | f
echo "== the broken form, -fcheck-waits, 1 s"
CAKE_CHECK_WAITS_SECONDS=1 SHAPES="256x512x4096" SANITIZE=0 OUT=$OUT/broken \
  timeout 60 bash harness/gemm/run.sh $G/broken_cw.cu 2>&1 | tail -12
