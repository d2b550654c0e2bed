#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05f/run.sh
# The family with the swapped decode route: the decode shapes and N = 2048 ..
# 8192 ones with a clean L2 and the bare read of B beside (FLUSH=read
# FLOOR=1), sanitizers on the new route; the under-filled list and the five
# large shapes (no regression).
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/f/bin
G=harness/gemm/generated/f
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
EXTRA="1x4096x4096 16x4096x4096 1x2048x8192 16x4096x8192 64x8192x8192 32x5120x8192 48x6144x6144 5x1000x520"
status=0
SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SAN_SHAPES="16 4096 14336 40 2056 4104" OUT=$OUT/fam_decode \
  bash harness/gemm/run.sh $G/family.cu || status=1
SHAPES="$UNDER $LARGE" SANITIZE=0 OUT=$OUT/fam_under bash harness/gemm/run.sh $G/family.cu || status=1
exit $status
