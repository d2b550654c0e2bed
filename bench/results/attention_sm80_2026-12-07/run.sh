#!/usr/bin/env bash
# bench/results/attention_sm80_2026-12-07/run.sh: on the device (carry
# harness/attention/generated, after gen.sh here): harness/attention/run.sh
# on each variant of the sm_80 attention forward compiled for sm_90a:
# correctness against a float64 reference at several shapes and input
# scales, CUPTI timing beside cuDNN and FlashAttention-2 through SDPA (same
# process, L2 flushed), then compute-sanitizer memcheck, racecheck and
# synccheck on our kernel. VARIANTS="w8n64 ..." picks some.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/attention_sm80}
for v in ${VARIANTS:-w8n64 w8n128 w4n32}; do
  echo "=== variant $v"
  OUT=$OUT/$v BUDGET=${BUDGET:-150} bash harness/attention/run.sh harness/attention/generated/$v/attention_fwd_sm80.cu 2>&1 |
    sed -n '/== summary/,$p'
done
