#!/usr/bin/env bash
# bench/results/attention_sm80_2026-12-07/run.sh: on the device (carry
# harness/attention/generated, after gen.sh here): harness/attention/run.sh
# on each variant of the sm_80 attention forward compiled for sm_90a:
# correctness against a float64 reference at several shapes and input
# scales, CUPTI timing beside cuDNN and FlashAttention-2 through SDPA (same
# process, L2 flushed), then compute-sanitizer memcheck, racecheck and
# synccheck on our kernel. Each folder of harness/attention/generated is one
# variant (VARIANTS="a b" picks some); only each run's summary is printed.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/attention_sm80}
G=harness/attention/generated
for v in ${VARIANTS:-$(ls $G)}; do
  echo "=== variant $v"
  OUT=$OUT/$v BUDGET=${BUDGET:-150} bash harness/attention/run.sh $G/$v/*.cu 2>&1 | sed -n '/== summary/,$p'
done
