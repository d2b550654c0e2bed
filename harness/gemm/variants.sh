#!/usr/bin/env bash
# harness/gemm/variants.sh - generates and builds (here: cakec and nvcc need no
# GPU) the GEMM variants a bench run times, from a list:
#
#   CAKEC=build-test/bin/cakec bash harness/gemm/variants.sh LIST [KERNEL]
#
# LIST has one variant per line, `NAME SOURCE.cake [cakec flags...]`, '#'
# comments. Each becomes harness/gemm/generated/NAME.cu and the harness binary
# harness/gemm/generated/bin/NAME (harness/gemm/build.sh, two at a time), which
# `PREBUILT=harness/gemm/generated/bin bash harness/gemm/run.sh` runs on the
# device. KERNEL is the generated kernel's name (default gemm_bf16). Fails if
# a variant does not compile or its kernel spills.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: $0 LIST [KERNEL]" >&2; exit 2; }
LIST=$1 KERNEL=${2:-gemm_bf16}
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/gemm/generated
mkdir -p $G/bin
names=()
while read -r name src flags; do
  case $name in '' | '#'*) continue ;; esac
  # shellcheck disable=SC2086  # the flags are separate arguments
  "$CAKEC" $flags "$src" -o "$G/$name.cu"
  names+=("$name")
done < "$LIST"
pids=()
for i in "${!names[@]}"; do
  bash harness/gemm/build.sh "$G/${names[$i]}.cu" "$KERNEL" &
  pids+=($!)
  if [ $((i % 2)) = 1 ]; then for p in "${pids[@]}"; do wait "$p"; done; pids=(); fi
done
for p in "${pids[@]}"; do wait "$p"; done
status=0
for n in "${names[@]}"; do
  spills=$(grep -A1 "properties for $KERNEL$" "$G/bin/$n.log" | grep -o "[0-9]* bytes spill stores" || true)
  echo "$n: ${spills:-no ptxas report for $KERNEL}"
  [ "$spills" = "0 bytes spill stores" ] || status=1
done
exit $status
