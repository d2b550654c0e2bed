#!/usr/bin/env bash
# Generates and builds (here, no GPU needed) the variants the route sweep of
# 2026-12-01 times; sweep.sh runs them on the device (carry harness/gemm/generated).
#   CAKEC=build-test/bin/cakec bash bench/results/gemm_family_routes_2026-12-01/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
gen() {  # gen NAME KERNEL SOURCE [-D...]
  local name=$1 kernel=$2 src=$3; shift 3
  "$CAKEC" -I examples "$@" "$src" -o $G/$name.cu
}
build() {  # build NAME KERNEL: harness/gemm/generated/bin/NAME, in the background
  NVCC=$NVCC bash harness/gemm/build.sh $G/$1.cu $2 &
}
gen dec56 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake
gen dec32 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake -DBN=32 -DSTAGES=16
gen d64n64 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake -DBN=64 -DSTAGES=8
gen d64n128 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake -DBN=128 -DSTAGES=6
gen d64n256 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake -DBN=256 -DSTAGES=4
gen small128 gemm_bf16 examples/gemm_bf16_sm90a.cake -DBN=128 -DSTAGES=5
gen tiled gemm_bf16 examples/gemm_bf16_sm90a.cake
gen persistent gemm_bf16 examples/gemm_bf16_persistent_sm90a.cake
# The hypothesis test: the decode schedule with A's TMA box clipped to M's
# rows (rounded up to 8) instead of 64 rows of which M are real, the stage's
# transaction bytes cut to match (hand-edited generated code, an experiment).
clip() {  # clip SRC DST BM TX
  sed -e "s/const int64_t cake_A_tile\[2\] = {$3, 64};/const int64_t cake_A_tile[2] = {std::min<int64_t>($3, (M + 7) \/ 8 * 8), 64};/" \
      -e "s/cake_mbar_arrive_expect_tx(\(.*\), $4);/cake_mbar_arrive_expect_tx(\1, $4 - ($3 - min($3, (M + 7) \/ 8 * 8)) * 128);/" \
      $G/$1.cu > $G/$2.cu
  grep -q "std::min<int64_t>($3, (M + 7)" $G/$2.cu && grep -q "$4 - ($3 - min" $G/$2.cu
}
gen d128 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake -DBM=128 -DSTAGES=8
clip dec56 decclip 64 15360
clip dec32 dec32clip 64 12288
clip d128 d128clip 128 23552
# L2 promotion of the tensor maps (the generated code asks for 256 bytes).
sed 's/CU_TENSOR_MAP_L2_PROMOTION_L2_256B/CU_TENSOR_MAP_L2_PROMOTION_L2_128B/' $G/tiled.cu > $G/tiled_p128.cu
sed 's/CU_TENSOR_MAP_L2_PROMOTION_L2_256B/CU_TENSOR_MAP_L2_PROMOTION_NONE/' $G/tiled.cu > $G/tiled_pnone.cu
grep -q L2_128B $G/tiled_p128.cu && grep -q PROMOTION_NONE $G/tiled_pnone.cu
build dec56 gemm_bf16_decode; build dec32 gemm_bf16_decode; wait
build d64n64 gemm_bf16_decode; build d64n128 gemm_bf16_decode; wait
build d64n256 gemm_bf16_decode; build small128 gemm_bf16; wait
build tiled gemm_bf16; build persistent gemm_bf16; wait
build decclip gemm_bf16_decode; build dec32clip gemm_bf16_decode; wait
build d128clip gemm_bf16_decode; build tiled_p128 gemm_bf16; wait
build tiled_pnone gemm_bf16; wait
# Third part: one wgmma group in flight in the decode consumer; narrower
# tiles for the small shapes; 128-byte L2 promotion on smaller tiles.
gen decp1 gemm_bf16_decode bench/results/gemm_family_routes_2026-12-01/variants/decode_p1_sm90a.cake
clip decp1 decp1clip 64 15360
gen small64 gemm_bf16 examples/gemm_bf16_sm90a.cake -DBN=64 -DSTAGES=6
gen d64n64s4 gemm_bf16_decode examples/gemm_bf16_decode_sm90a.cake -DBN=64 -DSTAGES=4
sed 's/CU_TENSOR_MAP_L2_PROMOTION_L2_256B/CU_TENSOR_MAP_L2_PROMOTION_L2_128B/' $G/small128.cu > $G/small128_p128.cu
build decp1clip gemm_bf16_decode; build small64 gemm_bf16; wait
build d64n64s4 gemm_bf16_decode; wait
build small128_p128 gemm_bf16; wait
# Fourth part: the cluster ping-pong schedule (2x1 clusters, B multicast) and
# 128-byte promotion on the five large shapes.
gen ppc gemm_bf16 examples/gemm_bf16_pingpong_cluster_sm90a.cake
p128() { sed 's/CU_TENSOR_MAP_L2_PROMOTION_L2_256B/CU_TENSOR_MAP_L2_PROMOTION_L2_128B/' $G/$1.cu > $G/$1_p128.cu; }
p128 ppc; p128 persistent
build ppc gemm_bf16; build ppc_p128 gemm_bf16; wait
build persistent_p128 gemm_bf16; wait
ls -la $G/bin
