#!/usr/bin/env bash
# harness/rows/softmax_forms.sh GEN - generates forms of examples/softmax_sm90a.cake
# over rows of 32768 into GEN (emptied first): one line per form on stdin,
# "TAG OPTIONS..." (comments after #), each giving GEN/TAG.cu and its
# interface GEN/TAG.json for harness/rows/rows_bench.py. CAKEC=path overrides
# build-test/bin/cakec. Used by the bench/results/softmax_* sweeps.
set -euo pipefail
cd "$(dirname "$0")/../.."
GEN=${1:?usage: softmax_forms.sh GEN < forms}
sed -E 's|^([[:space:]]*[^#[:space:]]+)|\1 examples/softmax_sm90a.cake -DN=32768|' | bash harness/forms.sh "$GEN"
