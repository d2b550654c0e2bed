#!/usr/bin/env bash
# Device call 1 (carry harness/gemm/generated/w): pending=0 against
# pending=1 at 128x192 and 128x128 tiles, beside cuBLAS, at the under-filled
# and mid-size shapes; sanitizers on the pending=1 forms.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_w1}
mkdir -p "$OUT"
G=harness/gemm/generated/w
export PREBUILT=$G/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S="1536x1536x12288 1280x1280x8192 1536x1152x4096 2000x3000x1536 2048x3072x4096 1024x1024x8192 512x4096x4096 2048x2048x8192 768x768x16384 4096x4096x4096"
SHAPES="$S" NAME=gemm_bf16 SANITIZE=0 OUT=$OUT/p0 timeout 200 bash harness/gemm/run.sh $G/t192.cu $G/t128.cu 2>&1 | grep -vE "^\s*$|launcher check"
SHAPES="$S" NAME=gemm_bf16_pending1 SANITIZE=1 SAN_SHAPES="256 512 128 512 768 2048 1000 1000 1000" OUT=$OUT/p1 \
  timeout 300 bash harness/gemm/run.sh $G/t192p1.cu $G/t128p1.cu 2>&1 | grep -vE "^\s*$|launcher check"
S2="768x768x16384 128x1024x16384 1024x1024x8192 256x4096x14336 64x2048x8192 512x2048x8192 128x4096x8192"
SHAPES="$S2" NAME=gemm_bf16_splitk HARNESS_FLAGS=-DWORKSPACE SANITIZE="skp1 skpairp1 sk64pairp1" \
  SAN_SHAPES="256 512 2048 512 768 8192 64 1000 4096" OUT=$OUT/sk timeout 280 bash harness/gemm/run.sh \
  $G/sk.cu $G/skp1.cu $G/skpair.cu $G/skpairp1.cu $G/sk64pair.cu $G/sk64pairp1.cu 2>&1 | grep -vE "^\s*$|launcher check"
