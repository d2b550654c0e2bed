#!/usr/bin/env bash
# The confirming device calls of 2026-12-01 (issue 19). Here first:
#   CAKEC=build-test/bin/cakec bash harness/gemm/variants.sh bench/results/gemm_confirm_2026-12-01/variants.txt
#   build-test/bin/cakec examples/gemm_bf16_family_sm90a.cake -o harness/gemm/generated/gemm_bf16_family_sm90a.cu
#   bash harness/gemm/build.sh harness/gemm/generated/gemm_bf16_family_sm90a.cu gemm_bf16 -DFAMILY
#   build-test/bin/cakec -I examples bench/variants/gemm_bf16_family_pcc_sm90a.cake -o harness/gemm/generated/family_pcc.cu
#   bash harness/gemm/build.sh harness/gemm/generated/family_pcc.cu gemm_bf16 -DFAMILY
# then on the device (carry harness/gemm/generated):
#   bash bench/results/gemm_confirm_2026-12-01/run.sh examples   # call 1
# and, after the ring's slot and lap became a mask and a shift (call 1's
# binaries kept as NAME_old, with their .cu):
#   bash bench/results/gemm_confirm_2026-12-01/run.sh examples old stalls families   # call 2
# and after the family's routes changed (its harness binary rebuilt as above):
#   bash bench/results/gemm_confirm_2026-12-01/run.sh family   # call 3
# and at the final commit (launchers that check the grid's run-time divisors):
#   bash bench/results/gemm_confirm_2026-12-01/run.sh examples family   # call 4
# and after the ring's mask and shift were taken back (the final code):
#   bash bench/results/gemm_confirm_2026-12-01/run.sh examples stalls family   # call 5
# Logs go under $OUT (default harness/gemm/out).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
O=${OUT:-harness/gemm/out}
P=bench/results/gemm_pcc_2026-12-01/run.sh
st=0
[ $# -ge 1 ] || set -- usage
for mode in "$@"; do
case $mode in
examples)
  # issue 19's five shapes, the sanitizers at five shapes (ragged edges, one
  # block, many laps), Nsight Compute of both and cuBLAS at 4096^3
  OUT=$O/five SANITIZE="persistent persistent_cluster" \
    SAN_SHAPES="1100 1536 512 2056 2312 264 200 304 136 3000 512 4096 256 256 64" \
    COUNTERS="4096 4096 4096" bash $P persistent persistent_cluster || st=1
  # the large shapes (M > 1024), the ping-pong cluster example beside them
  OUT=$O/big SHAPES=@bench/results/gemm_pcc_2026-12-01/big.txt \
    bash $P persistent persistent_cluster pingpong_cluster || st=1
  ;;
families)
  # the examples' family and the candidate with the cluster schedule on
  # K > 2048, over the family's lists (gemm_family_routes_2026-12-01)
  D=bench/results/gemm_family_routes_2026-12-01
  fam=(env PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY)
  for f in gemm_bf16_family_sm90a family_pcc; do
    G=harness/gemm/generated/$f.cu
    "${fam[@]}" OUT="$O/$f/list" SHAPES=@$D/shapes.txt SANITIZE=0 bash harness/gemm/run.sh "$G" | grep -E "^[0-9]+x|^geometric|INCORRECT|FAIL|ALL CORRECT" || st=1
    "${fam[@]}" OUT="$O/$f/more" SHAPES=@$D/heldout.txt SANITIZE=0 bash harness/gemm/run.sh "$G" | grep -E "^[0-9]+x|^geometric|INCORRECT|FAIL|ALL CORRECT" || st=1
  done
  # the candidate's new route (cluster schedule, K > 2048) under the sanitizers
  "${fam[@]}" OUT="$O/family_pcc/san" SHAPES=1100x1536x4160 SAN_SHAPES="1100 1536 4160 2056 264 2112" \
    bash harness/gemm/run.sh harness/gemm/generated/family_pcc.cu | grep -E "SUMMARY|INCORRECT|FAIL|ALL CORRECT" || st=1
  grep -h SUMMARY "$O"/family_pcc/san/san-*.log
  ;;
old)
  # A/B in the same call: call 1's binaries (ring slot and lap by cake_floormod
  # and cake_floordiv), kept here as NAME_old, at the five shapes
  OUT=$O/old bash $P persistent_old persistent_cluster_old || st=1
  ;;
stalls)
  # the stall reasons (Warp State Statistics' breakdown) of both and cuBLAS at 4096^3
  for n in persistent persistent_cluster; do
    PREBUILT=harness/gemm/generated/bin OUT=$O/stalls STALLS=1 bash harness/gemm/profile.sh harness/gemm/generated/$n.cu 4096 4096 4096 > /dev/null || st=1
  done
  ;;
family)
  # call 3: the examples' family after its last two routes changed (K % 64 != 0
  # to the persistent cluster schedule, no ping-pong route): the family's
  # lists, the shapes that cut boxes, the held-out ones and the large ones,
  # with the sanitizers on a shape of every route
  D=bench/results/gemm_family_routes_2026-12-01
  G=harness/gemm/generated/gemm_bf16_family_sm90a.cu
  fam=(env PREBUILT=harness/gemm/generated/bin NAME=gemm_bf16 HARNESS_FLAGS=-DFAMILY)
  "${fam[@]}" OUT="$O/family/list" SHAPES=@$D/shapes.txt \
    SAN_SHAPES="13 1120 1024 100 560 4096 200 24 136 1000 1000 1000 777 1536 520 2056 2312 264 1100 1536 512 3000 512 4096 1500 1504 4104" \
    bash harness/gemm/run.sh $G | grep -E "^[0-9]+x|^geometric|INCORRECT|FAIL|ALL CORRECT|exit" || st=1
  for l in cuts:$D/cuts.txt more:$D/heldout.txt big:bench/results/gemm_pcc_2026-12-01/big.txt; do
    "${fam[@]}" OUT="$O/family/${l%%:*}" SHAPES="@${l#*:}" SANITIZE=0 bash harness/gemm/run.sh $G |
      grep -E "^[0-9]+x|^geometric|INCORRECT|FAIL|ALL CORRECT" || st=1
  done
  ;;
*) echo "usage: $0 examples|old|stalls|families|family..." >&2; exit 2 ;;
esac
done
exit $st
