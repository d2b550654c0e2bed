#!/usr/bin/env bash
# Ring depth sweep of the decode schedule (timing only, SANITIZE=0):
#   cakec -DSTAGES=S --kernel-name=gemm_bf16_decode_sS examples/gemm_bf16_decode_sm90a.cake \
#         -o harness/gemm/generated/gemm_bf16_decode_sS_sm90a.cu      (S = 12, 14)
set -uo pipefail
cd "$(dirname "$0")/../../.."
[ -n "${1:-}" ] || for s in 12 14; do
  SANITIZE=0 SHAPES="1x7168x4096 16x7168x4096 64x7168x4096" NAME=gemm_bf16_decode_s$s \
    bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_decode_s${s}_sm90a.cu
done
# K per stage (contiguous bytes per weight row per copy): 128 (7 stages) and 256 (3 stages):
#   cakec -DBK=128 -DSTAGES=7 --kernel-name=gemm_bf16_decode_k128 ...; cakec -DBK=256 -DSTAGES=3 --kernel-name=gemm_bf16_decode_k256 ...
if [ "${1:-}" = bk ]; then
  for v in k128 k256; do
    SANITIZE=0 SHAPES="1x7168x4096 16x7168x4096 64x7168x4096 16x7168x4104 50x7168x1000" NAME=gemm_bf16_decode_$v \
      bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_decode_${v}_sm90a.cu
  done
fi
# K walk rotated per block ((k + block_id(0)) % n_k), 12 stages:
#   cakec -DSTAGES=12 --kernel-name=gemm_bf16_decode_rot examples/gemm_bf16_decode_sm90a.cake -o ...
if [ "${1:-}" = rot ]; then
  SANITIZE=0 SHAPES="1x7168x4096 16x7168x4096 64x7168x4096 16x7168x4104 50x7168x1000" NAME=gemm_bf16_decode_rot \
    bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_decode_rot_sm90a.cu
fi
# The L2 flush before each sample reads instead of writing (FLUSH=read): is the
# decode time set by writing back the dirty lines the default flush leaves?
if [ "${1:-}" = flush ]; then
  for f in write read; do
    FLUSH=$f SANITIZE=0 SHAPES="1x7168x4096 16x7168x4096 64x7168x4096" NAME=gemm_bf16_decode \
      bash harness/gemm/run.sh harness/gemm/generated/gemm_bf16_decode_sm90a.cu
  done
fi
