#!/usr/bin/env bash
# Device call 6 (carry harness/gemm/generated/sk): the family before the
# 128x192 route (family_old: examples/gemm_bf16_family_sm90a.cake at
# 82bc892) and with it (family) at call 5's shapes inside the route's boxes
# and the two under-filled shapes it was made for, in one call.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_sk6}
mkdir -p "$OUT"
G=harness/gemm/generated/sk
export PREBUILT=$G/bin
SHAPES="1280x1280x8192 1536x1152x4096 1100x1496x12288 1600x2944x2048 2048x3072x4096 1800x3000x8192 2000x3000x1536 1536x1536x12288" SANITIZE=0 \
  NAME=gemm_bf16 HARNESS_FLAGS="-DFAMILY -DWORKSPACE" OUT=$OUT \
  bash harness/gemm/run.sh $G/family_old.cu $G/family.cu 2>&1 | grep -E "^[0-9]+x|geometric|CORRECT|FAIL|route:|== "
