#!/usr/bin/env bash
# Every sm_90a example after issue 32's redesign steps (generated CUDA
# byte-identical to before): correctness at several shapes, timing
# beside the peers in the same process (CUPTI, L2 flushed, median of 120),
# and the three compute-sanitizer tools filtered to our kernels. Here first:
#   bash bench/results/issue32_2026-12-02/gen.sh
# then one device call (carry harness/gemm/generated harness/attention/generated harness/kmeans/generated):
#   bash bench/results/issue32_2026-12-02/run.sh
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
O=${OUT:-harness/out}
G=harness/gemm/generated
st=0
t0=$(date +%s)
echo "== attention ($(date -u +%FT%TZ))"
OUT=$O/attention BUDGET=200 bash harness/attention/run.sh harness/attention/generated/attention_fwd_sm90a.cu \
  harness/attention/generated/attention_fwd_causal_sm90a.cu harness/attention/generated/attention_fwd_simple_sm90a.cu |
  tail -30 || st=1
grep -h "launcher check" $O/attention/*.log | sort | uniq -c
echo "== k-means ($(( $(date +%s) - t0 )) s)"
OUT=$O/kmeans bash harness/kmeans/run.sh harness/kmeans/generated/kmeans_assign_sm90a.cu | tail -20 || st=1
echo "== GEMM examples, standard shapes ($(( $(date +%s) - t0 )) s)"
OUT=$O/gemm PREBUILT=$G/bin bash harness/gemm/run.sh $G/gemm_bf16_sm90a.cu $G/gemm_bf16_pingpong_sm90a.cu \
  $G/gemm_bf16_cluster_sm90a.cu | grep -E "^== |^[0-9]+x|geometric|CORRECT|INCORRECT|SUMMARY|exit|launcher check" || st=1
OUT=$O/gemm80 PREBUILT=$G/bin NAME=gemm_bf16_sm80 bash harness/gemm/run.sh $G/gemm_bf16_sm80.cu |
  grep -E "^== |^[0-9]+x|geometric|CORRECT|INCORRECT|SUMMARY|exit|launcher check" || st=1
echo "== persistent GEMMs, issue 19's five shapes, sanitizers at ragged shapes ($(( $(date +%s) - t0 )) s)"
OUT=$O/five SANITIZE="persistent persistent_cluster" \
  SAN_SHAPES="1100 1536 512 2056 2312 264 200 304 136" \
  bash bench/results/gemm_pcc_2026-12-01/run.sh persistent persistent_cluster pingpong_cluster || st=1
echo "== the family over its route list ($(( $(date +%s) - t0 )) s)"
PREBUILT=$G/bin NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY OUT=$O/family SHAPES=@bench/results/gemm_family_routes_2026-12-01/shapes.txt \
  SANITIZE=0 bash harness/gemm/run.sh $G/gemm_bf16_family_sm90a.cu | grep -E "^[0-9]+x|^geometric|INCORRECT|FAIL|ALL CORRECT|launcher check" || st=1
echo "== done ($(( $(date +%s) - t0 )) s), exit $st"
exit $st
