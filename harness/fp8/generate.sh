#!/usr/bin/env bash
# harness/fp8/generate.sh - generates the files harness/fp8/run.sh runs on
# the GPU (here, where cakec is built): the fp8 GEMM of
# examples/gemm_fp8_sm90a.cake with B e4m3 and with B e5m2, with 128x128
# tiles, and with the product promoted to f32 every 1, 2 and 4 stages (128x128 tiles);
# the row-wise scaled fp8 GEMM of examples/gemm_fp8_rowwise_sm90a.cake; the block-scaled one of
# examples/gemm_fp8_blockscaled_sm90a.cake;
# the sm_89 mma.sync fp8 GEMM of testsuite/codegen/Inputs/gemm_e4m3_sm89.cake;
# and the vector-load kernel of testsuite/codegen/Inputs/vector_loads.cake.
# CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/fp8/generated
mkdir -p "$GEN"
# gen NAME CAKEC-ARGUMENTS...: NAME.cu and its interface NAME.json (the
# harnesses bind the library built from NAME.cu through it: cakec.bind).
gen() {
  local name=$1
  shift
  "$CAKEC" "$@" -o "$GEN/$name.cu"
  "$CAKEC" "$@" --emit=interface -o "$GEN/$name.json"
}
# gemm_fp8_BTYPE: the names run.sh reads B's type from.
gen "gemm_fp8_e4m3" -I . examples/gemm_fp8_sm90a.cake
gen "gemm_fp8_e5m2" -I . examples/gemm_fp8_sm90a.cake -DB_E5M2=True
gen "gemm_fp8_inflight_e4m3" -I . examples/gemm_fp8_sm90a.cake -DINFLIGHT=True
gen "gemm_fp8_n128_e4m3" -I . examples/gemm_fp8_sm90a.cake -DBN=128 -DSTAGES=6 -DINFLIGHT=True
for every in 1 2 4; do  # promotion every 1, 2, 4 stages (K = 128, 256, 512)
  gen "gemm_fp8_promote${every}_e4m3" -I . examples/gemm_fp8_sm90a.cake -DBN=128 -DSTAGES=6 -DPROMOTE=True -DPROMOTE_EVERY=$every
done
# gemm_fp8_rowwise_BTYPE: row-wise scales (run.sh passes LIB:BTYPE:rowwise).
gen "gemm_fp8_rowwise_e4m3" -I . examples/gemm_fp8_rowwise_sm90a.cake
# gemm_fp8_blockscaled_BTYPE: 1 x 128 / 128 x 128 block scales (run.sh passes LIB:BTYPE:block).
gen "gemm_fp8_blockscaled_e4m3" -I . examples/gemm_fp8_blockscaled_sm90a.cake
# sm89_*: the sm_89 mma.sync fp8 GEMM, run on the H200 from sm_89 PTX.
gen "sm89_gemm_e4m3" testsuite/codegen/Inputs/gemm_e4m3_sm89.cake --target=sm_89 -DBM=128 -DSTAGES=3
gen "vector_loads" testsuite/codegen/Inputs/vector_loads.cake --target=sm_90a
gen "vector_stores" testsuite/codegen/Inputs/vector_stores.cake --target=sm_90a
gen "first_rows" testsuite/codegen/Inputs/first_rows.cake --target=sm_90a
ls "$GEN"
