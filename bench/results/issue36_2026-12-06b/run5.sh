#!/usr/bin/env bash
# Device call 5 (carry harness/gemm/generated/sk): call 4's middle list again
# (its 1100x1500 has N % 8 != 0, outside the family's domain, and the list
# stopped there): shapes inside the 128x192 route's boxes beside cuBLAS, and
# the sanitizers on the family at a shape the route takes.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_sk5}
mkdir -p "$OUT"
G=harness/gemm/generated/sk
export PREBUILT=$G/bin
SHAPES="1280x1280x8192 1536x1152x4096 1100x1496x12288 1600x2944x2048 2048x3072x4096 1800x3000x8192" SAN_SHAPES="1280 1280 512 1600 2944 256" \
  NAME=gemm_bf16 HARNESS_FLAGS="-DFAMILY -DWORKSPACE" OUT=$OUT \
  bash harness/gemm/run.sh $G/family.cu 2>&1 | grep -E "^[0-9]+x|geometric|CORRECT|FAIL|route:|error|memcheck|racecheck|synccheck"
