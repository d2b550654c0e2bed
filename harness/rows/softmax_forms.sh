#!/usr/bin/env bash
# harness/rows/softmax_forms.sh GEN - generates forms of examples/softmax_sm90a.cake
# over rows of 32768 into GEN (emptied first): one line per form on stdin,
# "TAG OPTIONS..." (comments after #), each giving GEN/TAG.cu and its
# interface GEN/TAG.json for harness/rows/rows_bench.py. CAKEC=path overrides
# build-test/bin/cakec. Used by the bench/results/softmax_* sweeps.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=${1:?usage: softmax_forms.sh GEN < forms}
rm -rf "$GEN" && mkdir -p "$GEN"
while read -r line; do
  line=${line%%#*}
  read -r -a args <<< "$line"
  [ ${#args[@]} -gt 0 ] || continue
  tag=${args[0]}
  "$CAKEC" examples/softmax_sm90a.cake -DN=32768 "${args[@]:1}" -o "$GEN/$tag.cu"
  "$CAKEC" examples/softmax_sm90a.cake -DN=32768 "${args[@]:1}" --emit=interface -o "$GEN/$tag.json"
done
ls "$GEN"
