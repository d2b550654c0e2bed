#!/usr/bin/env bash
# harness/epilogue/generate.sh - generates the files harness/epilogue/run.sh
# runs on the GPU (here, where cakec is built): the fused-epilogue GEMM in
# four variants (activation, bias dtype, residual) and the fragment-load
# kernel for sm_90a and sm_80. CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/epilogue/generated
mkdir -p "$GEN"
# gen NAME CAKEC-ARGUMENTS...: NAME.cu and its interface NAME.json (the
# harnesses bind the library built from NAME.cu through it: cakec.bind).
gen() {
  local name=$1
  shift
  "$CAKEC" "$@" -o "$GEN/$name.cu"
  "$CAKEC" "$@" --emit=interface -o "$GEN/$name.json"
}
EX=examples/gemm_bf16_epilogue_sm90a.cake
# gemm_epi_ACT_BIAS_RES: the names epilogue_bench.py reads the variant from.
gen "gemm_epi_silu_bf16_1" -I . "$EX" -DACT=3
gen "gemm_epi_gelu_f32_1" -I . "$EX" -DACT=2 -DBIAS_F32=True
gen "gemm_epi_relu_bf16_0" -I . "$EX" -DACT=1 -DRESIDUAL=False 2> /dev/null  # R unused: warned
gen "gemm_epi_none_bf16_1" -I . "$EX" -DACT=0
gen "fragment_loads_sm90a" testsuite/codegen/Inputs/fragment_loads.cake --target=sm_90a
gen "fragment_loads_sm80" testsuite/codegen/Inputs/fragment_loads.cake --target=sm_80
ls "$GEN"
