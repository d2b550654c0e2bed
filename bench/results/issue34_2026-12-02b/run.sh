#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after gen.sh here:
#   bash bench/results/issue34_2026-12-02b/run.sh
# Correctness against cuBLAS at shapes with partial tiles and many ring laps
# (K up to 4096: 64 k-steps over 2 stages), the time beside cuBLAS (the
# kernel is a one-warpgroup 64x64 tile GEMM: a correctness vehicle for the
# named barrier, not a performance claim), and compute-sanitizer memcheck,
# racecheck and synccheck on our kernel alone (synccheck checks bar.sync's
# thread counts). A wrong id or thread count hangs: the harness runs under
# timeout 300. racecheck at 512 x 768 x 2048 ran past that limit on
# 2026-12-02 (instrumented, not hung: memcheck and synccheck finished it),
# hence the smaller third sanitizer shape.
set -uo pipefail
cd "$(dirname "$0")/../../.."
NAME=epilogue_by_loader SHAPES="256x256x64 200x136x104 1024x512x2048 2048x2048x4096" \
  SAN_SHAPES="256 512 128 200 136 104 256 256 1024" \
  bash harness/gemm/run.sh harness/gemm/generated/epilogue_by_loader.cu
