#!/usr/bin/env bash
# harness/rows/generate.sh - generates the row kernels harness/rows/run.sh
# runs on the GPU (here, where cakec is built): RMSNorm with a residual and
# softmax, rows of 4096 and 2048. CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/rows/generated
mkdir -p "$GEN"
for n in 4096 2048; do  # KIND_N: the names run.sh reads the kind and N from
  "$CAKEC" examples/rmsnorm_sm90a.cake -DN=$n -o "$GEN/rmsnorm_$n.cu"
  "$CAKEC" examples/softmax_sm90a.cake -DN=$n -o "$GEN/softmax_$n.cu"
done
ls "$GEN"
