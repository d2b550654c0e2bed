#!/usr/bin/env bash
# harness/torch/harnesses.sh - the harnesses that call generated kernels from
# Python (they bind the libraries through the package: harness/common/cakelib.py),
# each in its correctness mode, in one device call.
#
# Here first: each harness's generated files with their interfaces
#   bash harness/rows/generate.sh; bash harness/epilogue/generate.sh; bash harness/fp8/generate.sh
#   (kmeans and attention: the cakec commands at the top of their run.sh)
# then one device call carrying those generated/ folders, with the command
#   bash harness/torch/harnesses.sh [GROUP...]
# GROUP: rows (with compute-sanitizer's three tools), kmeans, attention,
# epilogue, fp8; default all. Each harness's run.sh runs with its correctness
# switches (CHECK_ONLY=1, --check-only, TIMING=0; SANITIZE=0 but for rows),
# its logs kept under /tmp/harnesses, its output in $OUT/GROUP.log
# (default harness/torch/out). Exit status: 0 when every group passed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/torch/out}
mkdir -p "$OUTDIR"
[ $# -gt 0 ] || set -- rows kmeans attention epilogue fp8
status=0
for group in "$@"; do
  log=$OUTDIR/$group.log
  logs=/tmp/harnesses/$group
  start=$SECONDS
  case $group in
    rows) OUT=$logs CHECK_ONLY=1 timeout 400 bash harness/rows/run.sh > "$log" 2>&1 ;;
    kmeans) OUT=$logs SANITIZE=0 BENCH_ARGS=--check-only timeout 200 bash harness/kmeans/run.sh > "$log" 2>&1 ;;
    attention) OUT=$logs SANITIZE=0 TIMING=0 BUDGET=240 bash harness/attention/run.sh > "$log" 2>&1 ;;
    epilogue) OUT=$logs CHECK_ONLY=1 SANITIZE=0 timeout 400 bash harness/epilogue/run.sh > "$log" 2>&1 ;;
    fp8) OUT=$logs CHECK_ONLY=1 SANITIZE=0 timeout 400 bash harness/fp8/run.sh > "$log" 2>&1 ;;
    *) echo "harnesses.sh: no group '$group' (rows, kmeans, attention, epilogue, fp8)" >&2; exit 2 ;;
  esac
  rc=$?
  [ $rc -eq 0 ] || status=1
  # attention's run.sh writes its per-library logs apart: keep them with the summary
  [ "$group" = attention ] && cat "$logs"/*.log >> "$log" 2>/dev/null
  echo "$group: exit $rc in $((SECONDS - start)) s"
done
exit $status
