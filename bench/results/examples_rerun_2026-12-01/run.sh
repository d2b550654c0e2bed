#!/usr/bin/env bash
# The sm_90a examples whose generated code the ring's mask and shift changed
# (commit e359a60, later taken back) and that the GEMM family runs do not cover: attention
# (ping-pong, causal, one role), k-means, and the plain, ping-pong and
# cluster GEMMs and the sm_80 GEMM. Correctness, timing beside the peers and
# the three sanitizers, one device call. Here first:
#   bash bench/results/examples_rerun_2026-12-01/gen.sh
# then on the device (carry harness/gemm/generated harness/attention/generated harness/kmeans/generated):
#   bash bench/results/examples_rerun_2026-12-01/run.sh
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
O=${OUT:-harness/out}
st=0
OUT=$O/attention BUDGET=270 bash harness/attention/run.sh harness/attention/generated/attention_fwd_sm90a.cu \
  harness/attention/generated/attention_fwd_causal_sm90a.cu harness/attention/generated/attention_fwd_simple_sm90a.cu |
  tail -30 || st=1
OUT=$O/kmeans bash harness/kmeans/run.sh harness/kmeans/generated/kmeans_assign_sm90a.cu | tail -20 || st=1
G=harness/gemm/generated
OUT=$O/gemm PREBUILT=$G/bin bash harness/gemm/run.sh $G/gemm_bf16_sm90a.cu $G/gemm_bf16_pingpong_sm90a.cu \
  $G/gemm_bf16_cluster_sm90a.cu | grep -E "^== |^[0-9]+x|geometric|CORRECT|INCORRECT|exit" || st=1
OUT=$O/gemm80 PREBUILT=$G/bin NAME=gemm_bf16_sm80 bash harness/gemm/run.sh $G/gemm_bf16_sm80.cu |
  grep -E "^== |^[0-9]+x|geometric|CORRECT|INCORRECT|exit" || st=1
exit $st
