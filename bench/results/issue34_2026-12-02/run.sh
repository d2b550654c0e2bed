#!/usr/bin/env bash
# Every sm_90a example after issue 34 (role families in the ping-pong GEMMs
# and attention forward): the same harness runs as issue 32's (correctness
# at several shapes, timing beside the peers in one process, CUPTI, L2
# flushed, median of 120, compute-sanitizer filtered to our kernels), so
# this calls its script. Here first: bash bench/results/issue34_2026-12-02/gen.sh
# then one device call (carry harness/gemm/generated harness/attention/generated harness/kmeans/generated):
#   bash bench/results/issue34_2026-12-02/run.sh
exec bash "$(dirname "$0")/../issue32_2026-12-02/run.sh" "$@"
