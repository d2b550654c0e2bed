#!/usr/bin/env bash
# harness/rows/generate.sh - generates the row kernels harness/rows/run.sh
# runs on the GPU (here, where cakec is built): RMSNorm with a residual and
# softmax, rows of 2048 to 32768. CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/rows/generated
mkdir -p "$GEN"
# KIND_N_ROWS: the names run.sh reads the kind, N and the rows per block from.
for n in 4096 2048; do
  "$CAKEC" examples/rmsnorm_sm90a.cake -DN=$n -o "$GEN/rmsnorm_${n}_4.cu"
  "$CAKEC" examples/softmax_sm90a.cake -DN=$n -o "$GEN/softmax_${n}_4.cu"
done
# Longer rows, several warps per row.
"$CAKEC" examples/rmsnorm_sm90a.cake -DN=8192 -DSPLIT=2 -o "$GEN/rmsnorm_8192_2.cu"
"$CAKEC" examples/softmax_sm90a.cake -DN=8192 -DSPLIT=2 -o "$GEN/softmax_8192_2.cu"
"$CAKEC" examples/softmax_sm90a.cake -DN=32768 -DWARPS=8 -DSPLIT=8 -o "$GEN/softmax_32768_1.cu"
# fp8 quantization round trips (harness/rows/fp8_check.py).
"$CAKEC" testsuite/rows/Inputs/fp8_quant.cake -DE5M2=False -o "$GEN/fp8_e4m3.cu"
"$CAKEC" testsuite/rows/Inputs/fp8_quant.cake -DE5M2=True -o "$GEN/fp8_e5m2.cu"
ls "$GEN"
