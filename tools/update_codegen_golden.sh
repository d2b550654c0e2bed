#!/usr/bin/env bash
# Regenerates the codegen golden files after an intended change of the
# lowering; review the diff before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
CAKEC=${CAKEC:-build/bin/cakec}
G=testsuite/codegen/Inputs
"$CAKEC" examples/gemm_bf16_sm90a.cake --target=sm_90a --emit=cuda -o - > $G/gemm_bf16_sm90a.cu.golden
"$CAKEC" examples/gemm_bf16_sm80.cake --target=sm_80 --emit=cuda -o - > $G/gemm_bf16_sm80.cu.golden
"$CAKEC" examples/gemm_bf16_sm120a.cake --target=sm_120a --emit=cuda -o - > $G/gemm_bf16_sm120a.cu.golden
"$CAKEC" examples/gemm_bf16_sm100a.cake --target=sm_100a --emit=cuda -o - > $G/gemm_bf16_sm100a.cu.golden
git diff --stat testsuite/codegen/Inputs/
