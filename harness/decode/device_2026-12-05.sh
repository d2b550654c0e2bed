#!/usr/bin/env bash
# One device call for this stop's decode work (issue 35), in priority order, each part
# started only while LIMIT seconds (default 420) have not passed: the paged example
# (pages of 128 tokens), the single-block example built for two blocks per
# multiprocessor, the split sweep (MIN_TILES), the paged example with pages of 64 —
# each correct, timed beside its default and the peers in one process, and (the new
# kernels) under compute-sanitizer. Here `bash harness/torch/stage.sh`; there
# `bash harness/decode/device_2026-12-05.sh` with harness/torch/tools carried.
# Logs under $OUT/{p,b,m,p64}.
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}
LIMIT=${LIMIT:-420}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export SAMPLES=100
part() { if [ $SECONDS -lt $LIMIT ]; then echo "== $1 (at ${SECONDS} s)"; shift; "$@" 2>&1 | tail -60; else echo "== $1 skipped (${SECONDS} s)"; fi; }
part paged128 env OUT=$OUT/p PAGES=128 TIMED=1x4096,4x4096,32x4096,128x4096 bash harness/decode/paged_run.sh
part blocks env OUT=$OUT/b VARIANTS="${VARIANTS:-BN=64 STAGES=3 O_OVER_Q=1 BLOCKS=2 MATH_REGS=232}" \
  TIMED=128x4096,64x4096,32x4096,8x32768 bash harness/decode/blocks_run.sh
part sweep env OUT=$OUT/m SAN=0 MIN_TILES="${MIN_TILES:-4 2}" TIMED=1x4096,1x32768,2x8192,4x4096,1x1024 \
  bash harness/decode/split_sweep.sh
part paged64 env OUT=$OUT/p64 PAGES=64 TIMED=1x4096,32x4096 bash harness/decode/paged_run.sh
echo "== done at ${SECONDS} s"
