#!/usr/bin/env bash
# Device call 2 (carry harness/gemm/generated/d and harness/fp8/generated):
# the family with the candidate 128x144 clustered route beside the family as it is,
# one process each, at the issue's under-filled list and shapes of the new
# route's box (M and N in 1409..1536) with short and long K; compute-sanitizer
# on the new family at two shapes of the box; then the fp8 view-store
# kernel and the fp8 attention forward (bench/results/issue37_2026-12-06d/run.sh).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_d2}
mkdir -p "$OUT"
G=harness/gemm/generated/d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
S="$UNDER 1536x1536x4096 1472x1472x8192 1440x1536x2048 1536x1416x16384 1504x1504x1024 1416x1528x12288"
PREBUILT=$G/bin SHAPES="$S" SANITIZE=family SAN_SHAPES="1416 1504 512 1536 1536 2048" OUT=$OUT/fam \
  timeout 300 bash harness/gemm/run.sh $G/family_old.cu $G/family.cu 2>&1 \
  | grep -E "^[0-9]+x|geometric|== |CORRECT|FAIL|WRONG|SUMMARY|exit"
(cd "$OUT" && tar czf logs.tgz fam && rm -rf fam)
OUT=$OUT/i37 timeout 230 bash bench/results/issue37_2026-12-06d/run.sh 2>&1 | tail -16
