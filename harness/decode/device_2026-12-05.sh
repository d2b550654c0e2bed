#!/usr/bin/env bash
# One device call for this stop's decode work (issue 35): the paged example (pages of 128
# and 64 tokens), the single-block example built for two blocks per multiprocessor, the
# split sweep (MIN_TILES), each correct, timed beside its default and the peers in one
# process, and under compute-sanitizer. Here `bash harness/torch/stage.sh`; there
# `bash harness/decode/device_2026-12-05.sh` with harness/torch/tools carried. Logs
# under $OUT/{p,b,m}.
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export SAMPLES=100
OUT=$OUT/p PAGES=${PAGES:-"128 64"} TIMED=1x4096,4x4096,32x4096,128x4096 bash harness/decode/paged_run.sh 2>&1 | tail -60
OUT=$OUT/b VARIANTS=${VARIANTS:-"BN=64 STAGES=3 O_OVER_Q=1 BLOCKS=2 MATH_REGS=232"} TIMED=128x4096,64x4096,32x4096,8x32768 \
  bash harness/decode/blocks_run.sh 2>&1 | tail -60
OUT=$OUT/m SAN=0 MIN_TILES=${MIN_TILES:-"2 4"} TIMED=1x4096,1x32768,2x8192,4x4096,1x1024 bash harness/decode/split_sweep.sh 2>&1 | tail -60
