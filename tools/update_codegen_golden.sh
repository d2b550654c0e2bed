#!/usr/bin/env bash
# Regenerates the codegen golden file after an intended change of the lowering;
# review the diff before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
CAKEC=${CAKEC:-build/bin/cakec}
"$CAKEC" examples/gemm_bf16_sm90a.cake --target=sm_90a --emit=cuda -o - > testsuite/codegen/Inputs/gemm_bf16_sm90a.cu.golden
git diff --stat testsuite/codegen/Inputs/
