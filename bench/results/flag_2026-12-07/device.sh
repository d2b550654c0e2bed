#!/usr/bin/env bash
# One device call (carry harness/gemm/generated/f, harness/gemm/generated/p,
# harness/fp8/generated, harness/rows/generated; generated here first by
# family_gen.sh and as bench/results/h200_2026-12-06/README.md says).
# On an H200: the family as committed at the under-filled list and the large
# five (issue 36's bars), the family with its 128x128 split-K routes taken in
# turn at the under-filled list, then the rest of the runs owed to an H200
# (bench/results/h200_2026-12-06/run.sh: fp8 block-scaled, the staged
# softmax; with DECODE=1 the decode list), each under a time limit. On an H100: only the
# two families (family_run.sh), or nothing with ONLY_H200=1; SHORT=1 stops
# after fp8; SERIAL=0 leaves out the family in turn.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/flagdev}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $gpu; $(date -u +%FT%TZ)"
case "$gpu" in
*H200*) ;;
*) [ "${ONLY_H200:-0}" = 1 ] && exit 0  # ONLY_H200=1: nothing on another GPU
   exec bash bench/results/flag_2026-12-07/family_run.sh ;;
esac
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
LARGE="$(grep -v '^#' harness/gemm/shapes/large5.txt | tr '\n' ' ')"
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
f() { grep -E "^ *[0-9]+x|geometric|CORRECT|FAIL|WRONG"; }
G=harness/gemm/generated/f
PREBUILT=$G/bin HARNESS_FLAGS="-DFAMILY -DWORKSPACE" SHAPES="$UNDER $LARGE" SANITIZE=0 OUT=$OUT/fam \
  timeout 110 bash harness/gemm/run.sh $G/family.cu 2>&1 | f
[ "${SERIAL:-1}" = 1 ] &&  # SERIAL=0: not the family in turn
PREBUILT=$G/bin HARNESS_FLAGS="-DFAMILY -DWORKSPACE" SHAPES="$UNDER" SANITIZE=0 OUT=$OUT/famser \
  timeout 70 bash harness/gemm/run.sh $G/family_serial.cu 2>&1 | f
FP8_ROW_TILE=3072 GEN=harness/fp8/generated/i37d SAMPLES=100 SANITIZE=0 OUT=$OUT/fp8 \
  SHAPES="4096x7168x4096,8192x8192x8192,4096x4096x4096,2048x7168x16384,4096x7168x16384" \
  timeout 150 bash harness/fp8/run.sh 2>&1 | grep -v "^build\|Warning\|warn" | tail -25
[ "${SHORT:-0}" = 1 ] && exit 0  # SHORT=1: the families and fp8 only
OUT=$OUT/softmax SANITIZE=0 GEN=harness/rows/generated/staged timeout 100 bash bench/results/softmax_long_2026-12-06/run.sh 2>&1 | tail -14
[ "${DECODE:-0}" = 1 ] || exit 0  # DECODE=1: the decode list too (90 s more)
PREBUILT=harness/gemm/generated/p/bin HARNESS_FLAGS="-DFAMILY -DWORKSPACE" SHAPES="$DEC" FLUSH=read FLOOR=1 SANITIZE=0 \
  OUT=$OUT/dec timeout 90 bash harness/gemm/run.sh harness/gemm/generated/p/family.cu 2>&1 | f
