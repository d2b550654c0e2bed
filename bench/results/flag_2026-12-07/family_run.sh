#!/usr/bin/env bash
# On the device, after family_gen.sh here (harness/gemm/generated/f carried):
#   OUT=$OUT bash bench/results/flag_2026-12-07/family_run.sh
# The family as committed and with its 128x128 split-K routes in turn, one
# after the other (each beside cuBLAS in its own process), at the
# under-filled list and the shapes those routes take.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/f/bin NAME=gemm_bf16 HARNESS_FLAGS="-DFAMILY -DWORKSPACE"
G=harness/gemm/generated/f
OUT=${OUT:-/tmp/flagfam}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
f() { grep -E "^ *[0-9]+x|geometric|repeats|CORRECT|FAIL|WRONG|route:"; }
for k in family family_serial family; do
  SHAPES="$UNDER 100x8192x8192 128x2048x8192 384x2048x8192" REPEATS=3 SANITIZE=0 OUT=$OUT/$k \
    timeout 150 bash harness/gemm/run.sh $G/$k.cu 2>&1 | f | grep -v "route:" 
done
