#!/usr/bin/env bash
# On the H200, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05c/run.sh
# The decode shapes and N = 4096 / 2048 / 8192 ones with a clean L2 and the
# bare read of B beside (FLUSH=read FLOOR=1): split-K at BM = 128 (the
# family's), at BM = 64 with BN = 128, 192, 256, and the decode schedule;
# sanitizers on the BM = 64 variants at a decode shape and a small one.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/c/bin
G=harness/gemm/generated/c
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
EXTRA="1x4096x4096 16x4096x4096 1x2048x8192 16x4096x8192 64x8192x8192 32x5120x8192"
status=0
for v in sk128 sk64n128 sk64n192 sk64n256; do
  SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE="sk64n128 sk64n192 sk64n256" \
    SAN_SHAPES="16 4096 14336 100 1000 520" NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE OUT=$OUT/sk \
    bash harness/gemm/run.sh $G/$v.cu || status=1
done
SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE=0 NAME=gemm_bf16_decode OUT=$OUT/decode \
  bash harness/gemm/run.sh $G/decode.cu || status=1
exit $status
