#!/usr/bin/env bash
# harness/rows/generate.sh - generates the row kernels harness/rows/run.sh
# runs on the GPU (here, where cakec is built): RMSNorm with a residual and
# softmax, rows of 2048 to 32768. CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/rows/generated
mkdir -p "$GEN"
# gen NAME SOURCE OPTIONS...: NAME.cu and its interface NAME.json (the
# harnesses bind the library built from NAME.cu through it: cakec.bind).
gen() {
  local name=$1
  shift
  "$CAKEC" "$@" -o "$GEN/$name.cu"
  "$CAKEC" "$@" --emit=interface -o "$GEN/$name.json"
}
# KIND_N_ROWS: the names run.sh reads the kind, N and the rows per block from.
for n in 4096 2048; do
  gen "rmsnorm_${n}_4" examples/rmsnorm_sm90a.cake -DN=$n
  gen "softmax_${n}_4" examples/softmax_sm90a.cake -DN=$n
done
# Longer rows, several warps per row.
gen "rmsnorm_8192_2" examples/rmsnorm_sm90a.cake -DN=8192 -DSPLIT=2
gen "softmax_8192_2" examples/softmax_sm90a.cake -DN=8192 -DSPLIT=2
gen "softmax_32768_1" examples/softmax_sm90a.cake -DN=32768 -DWARPS=8 -DSPLIT=8
# fp8 quantization round trips (harness/rows/fp8_check.py).
gen "fp8_e4m3" testsuite/rows/Inputs/fp8_quant.cake -DE5M2=False
gen "fp8_e5m2" testsuite/rows/Inputs/fp8_quant.cake -DE5M2=True
ls "$GEN"
