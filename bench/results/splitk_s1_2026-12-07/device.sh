#!/usr/bin/env bash
# One device call (carry harness/gemm/generated/s and harness/gemm/generated/f,
# built here by gen.sh and bench/results/flag_2026-12-07/family_gen.sh): the
# S = 1 split-K check (run.sh) on any GPU, then on an H200 the family at the
# under-filled list and the large five and the family in turn (the first two
# runs of bench/results/flag_2026-12-07/device.sh, owed to an H200).
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/s1dev}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $gpu; $(date -u +%FT%TZ)"
OUT=$OUT/s1 timeout 330 bash bench/results/splitk_s1_2026-12-07/run.sh
case "$gpu" in *H200*) ;; *) exit 0 ;; esac
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
f() { grep -E "^ *[0-9]+x|geometric|CORRECT|FAIL|WRONG"; }
G=harness/gemm/generated/f
PREBUILT=$G/bin HARNESS_FLAGS="-DFAMILY -DWORKSPACE" SHAPES="$UNDER $LARGE" SANITIZE=0 OUT=$OUT/fam \
  timeout 110 bash harness/gemm/run.sh $G/family.cu 2>&1 | f
PREBUILT=$G/bin HARNESS_FLAGS="-DFAMILY -DWORKSPACE" SHAPES="$UNDER" SANITIZE=0 OUT=$OUT/famser \
  timeout 70 bash harness/gemm/run.sh $G/family_serial.cu 2>&1 | f
