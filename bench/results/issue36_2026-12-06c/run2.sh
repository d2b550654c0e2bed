#!/usr/bin/env bash
# Device call 2 (carry harness/gemm/generated/f): the family with this day's
# guards beside the family before them, one process each, at the issue's
# under-filled list, the shapes of the 128x192 route's boxes measured on
# 2026-12-06 (issue36_2026-12-06b call 6) and shapes of the new boxes with
# short and long K; then compute-sanitizer on the new family at two shapes
# of the new boxes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_f2}
mkdir -p "$OUT"
G=harness/gemm/generated/f
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
UNDER="$(grep -v '^#' harness/gemm/shapes/underfilled.txt | tr '\n' ' ')"
S="$UNDER 1280x1280x8192 1536x1152x4096 1100x1496x12288 1600x2944x2048 2048x3072x4096 1800x3000x8192 2000x3000x1536 \
1200x1200x1024 1408x1536x2048 1536x1408x512 1104x1104x4096 1304x1504x1536 1536x1024x2048 1400x800x4096 1500x600x8192 1408x1408x16384"
PREBUILT=$G/bin SHAPES="$S" NAME=gemm_bf16 HARNESS_FLAGS="-DFAMILY -DWORKSPACE" SANITIZE=family \
  SAN_SHAPES="1304 1104 512 1408 1536 2048" OUT=$OUT timeout 500 bash harness/gemm/run.sh $G/family_old.cu $G/family.cu 2>&1 \
  | grep -E "^[0-9]+x|geometric|== |CORRECT|FAIL|WRONG|SUMMARY|exit"
