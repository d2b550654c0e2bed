#!/usr/bin/env bash
# Device call 1 (carry harness/gemm/generated/d): the one-tile schedules of
# gen.sh at the shapes of the 128x192 / 128x128 routes, the split-K ones at
# the split-K routes' shapes; one process per binary (cuBLAS beside it), then
# memcheck, racecheck and synccheck on cm192 and skp192; then 64x128 split-K
# tiles beside the 64x64 ones at M <= 128 (sanitizers on sk64w).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_d1}
mkdir -p "$OUT"
G=harness/gemm/generated/d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E "^[0-9]+x|geometric|== .*bench|CORRECT|FAIL|WRONG|SUMMARY|exit"; }
S1="1536x1536x12288 2000x3000x1536 1100x1496x12288 1280x1280x8192 1536x1536x4096 1800x3000x8192 1408x1408x16384 1304x1504x1536 2048x3072x4096 1536x1152x4096"
PREBUILT=$G/bin SHAPES="$S1" SANITIZE=cm192 SAN_SHAPES="200 400 128 1000 1536 2048" OUT=$OUT/one \
  timeout 220 bash harness/gemm/run.sh $G/w192.cu $G/cm192.cu $G/cm144.cu $G/cm128.cu $G/cn192.cu 2>&1 | f
S2="768x768x16384 512x1024x8192 1024x1024x8192 768x1024x4096 512x512x16384 256x1024x16384 1024x768x8192"
PREBUILT=$G/bin SHAPES="$S2" SANITIZE=skp192 SAN_SHAPES="200 400 1024 768 768 4096" OUT=$OUT/sk \
  timeout 190 bash harness/gemm/run.sh $G/skp.cu $G/skp192.cu $G/skp256.cu $G/skp264.cu 2>&1 | f
S3="128x1024x16384 128x2048x8192 64x1024x16384 128x1024x8192 100x1000x8192 64x2048x16384"
PREBUILT=$G/bin SHAPES="$S3" SANITIZE=sk64w SAN_SHAPES="100 1000 2048" OUT=$OUT/sk64 \
  timeout 120 bash harness/gemm/run.sh $G/sk64.cu $G/sk64w.cu 2>&1 | f
# the logs as one file (a call brings back a limited number of files)
(cd "$OUT" && tar czf logs.tgz one sk sk64 && rm -rf one sk sk64)
