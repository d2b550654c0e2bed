#!/usr/bin/env bash
# On the device, after gen.sh here (harness/gemm/generated/s carried):
#   OUT=$OUT bash bench/results/splitk_s1_2026-12-07/run.sh
# The new form (s1) correct at shapes where S = 1 (one block per tile: the
# direct store) and S > 1 (the last-block fix-up), 10 repeats bitwise
# identical, compute-sanitizer at one shape of each; timed beside cuBLAS,
# then the form before the change at the same shapes; the REDUCE and CM=2
# variants checked at a shape of each S.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/s/bin NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE
G=harness/gemm/generated/s
OUT=${OUT:-/tmp/s1}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S1="2048x2048x8192 2000x3000x1536 1536x1536x12288 512x4096x4096 1000x3000x520 8x8x8 4096x4096x4096"
SN="256x4096x14336 1024x1024x8192 768x768x16384 128x1024x16384 100x1000x8192"
f() { grep -E "^ *[0-9]+x|geometric|repeats|CORRECT|FAIL|WRONG|ERROR SUMMARY|RACECHECK SUMMARY|error"; }
SHAPES="$S1 $SN" REPEATS=10 SAN_SHAPES="512 4096 4096 100 1000 8192" OUT=$OUT/s1 \
  timeout 200 bash harness/gemm/run.sh $G/s1.cu 2>&1 | f
SHAPES="$S1 $SN" SANITIZE=0 OUT=$OUT/before timeout 100 bash harness/gemm/run.sh $G/before.cu 2>&1 | f
for k in s1_reduce s1_cm2; do
  SHAPES="512x4096x4096 1024x1024x8192 100x1000x8192" REPEATS=2 SANITIZE=0 OUT=$OUT/$k \
    timeout 60 bash harness/gemm/run.sh $G/$k.cu 2>&1 | f
done
