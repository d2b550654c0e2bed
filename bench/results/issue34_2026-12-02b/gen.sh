#!/usr/bin/env bash
# Generates (no GPU needed) what run.sh runs: the first kernel with a named
# barrier over a subset of roles (issue 34): testsuite/namedbarrier/
# pass_epilogue_store_role.cake, a 64x64-tile GEMM whose load role also
# issues the TMA store of C after meeting the math role at lm.sync(staged).
# Its parameters are the GEMM harness's (A M x K, B N x K, C M x N).
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=${CAKEC:-build-test/bin/cakec}
mkdir -p harness/gemm/generated
"$C" --target=sm_90a testsuite/namedbarrier/pass_epilogue_store_role.cake -o harness/gemm/generated/epilogue_by_loader.cu
