#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the family with a 128x144 clustered route
# (wave144: examples/gemm_bf16_cluster_n_sm90a.cake -DCM=2 -DBN=144
# -DSTAGES=5 for M and N in 1409..1536, ahead of the 128x192 route), made
# from the example by adding its two lines, beside the family as it is
# (family_old), built into harness/gemm/generated/d/bin.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated/d
mkdir -p $G/bin $G/cand
F=examples/gemm_bf16_family_sm90a.cake
sed -e '/^wide = cake.instantiate/a wave144 = cake.instantiate("gemm_bf16_cluster_n_sm90a", CM=2, BN=144, STAGES=5)' \
    -e '/lm.route(wide.gemm_bf16, when=M > 1024 and M <= 1536/i\    lm.route(wave144.gemm_bf16, when=M > 1408 and M <= 1536 and N > 1408 and N <= 1536)' \
    $F > $G/cand/gemm_bf16_family_sm90a.cake
grep -c wave144 $G/cand/gemm_bf16_family_sm90a.cake | grep -qx 2 || { echo "gen2.sh: the route was not added" >&2; exit 1; }
$CAKEC -I examples $F -o $G/family_old.cu
$CAKEC -I examples $G/cand/gemm_bf16_family_sm90a.cake -o $G/family.cu
bash harness/gemm/build.sh $G/family_old.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family_old &
bash harness/gemm/build.sh $G/family.cu gemm_bf16 -DFAMILY -DWORKSPACE -o $G/bin/family
wait
grep -h -A2 "entry function" $G/bin/family*.log | grep -E "spill" | sort | uniq -c
