#!/usr/bin/env bash
# harness/forms.sh GEN - generates the kernels of a bench sweep into GEN
# (emptied first): one line per kernel on stdin, "NAME CAKEC-ARGUMENTS..."
# (comments after #; arguments split at spaces), each giving GEN/NAME.cu and
# its interface GEN/NAME.json, which the harnesses bind it through. Used by
# harness/rows/softmax_forms.sh and the bench/results/issue37_* sweeps (for
# harness/fp8/run.sh, NAME says how it binds the kernel:
# gemm_fp8_blockscaled*_BTYPE block scales, *_rowwise_* row-wise, other
# gemm_fp8_*_BTYPE per tensor). CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=${1:?usage: forms.sh GEN < forms}
rm -rf "$GEN" && mkdir -p "$GEN"
while read -r line; do
  line=${line%%#*}
  read -r -a args <<< "$line"
  [ ${#args[@]} -gt 0 ] || continue
  "$CAKEC" "${args[@]:1}" -o "$GEN/${args[0]}.cu"
  "$CAKEC" "${args[@]:1}" --emit=interface -o "$GEN/${args[0]}.json"
done
ls "$GEN"
