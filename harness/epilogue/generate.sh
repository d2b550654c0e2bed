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
EX=examples/gemm_bf16_epilogue_sm90a.cake
# gemm_epi_ACT_BIAS_RES: the names epilogue_bench.py reads the variant from.
"$CAKEC" -I . "$EX" -DACT=3 -o "$GEN/gemm_epi_silu_bf16_1.cu"
"$CAKEC" -I . "$EX" -DACT=2 -DBIAS_F32=True -o "$GEN/gemm_epi_gelu_f32_1.cu"
"$CAKEC" -I . "$EX" -DACT=1 -DRESIDUAL=False -o "$GEN/gemm_epi_relu_bf16_0.cu" 2> /dev/null  # R unused: warned
"$CAKEC" -I . "$EX" -DACT=0 -o "$GEN/gemm_epi_none_bf16_1.cu"
"$CAKEC" testsuite/codegen/Inputs/fragment_loads.cake --target=sm_90a -o "$GEN/fragment_loads_sm90a.cu"
"$CAKEC" testsuite/codegen/Inputs/fragment_loads.cake --target=sm_80 -o "$GEN/fragment_loads_sm80.cu"
ls "$GEN"
