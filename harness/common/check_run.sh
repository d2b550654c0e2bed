#!/usr/bin/env bash
# harness/common/check_run.sh - the device side of a harness whose check script
# loads its example through the Python package (cakec.load, with the compiler
# staged by harness/torch/stage.sh and carried as harness/torch/tools):
#
#   bash harness/common/check_run.sh NAME SCRIPT KERNEL_PREFIX
#
# 1. SCRIPT --samples ${SAMPLES:-120} --json $OUT/NAME.json (correctness, then
#    timing beside its peers), its output in $OUT/NAME.log; 2. unless
#    SANITIZE=0, compute-sanitizer memcheck, racecheck and synccheck on
#    `SCRIPT --check-only`, filtered to kernels whose names start with
#    KERNEL_PREFIX (the peers' own kernels report hazards). OUT defaults to
#    harness/NAME/out. Exits 1 when a step failed.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 NAME SCRIPT KERNEL_PREFIX" >&2; exit 2; }
NAME=$1 SCRIPT=$2 PREFIX=$3
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/$NAME/out}
mkdir -p "$OUTDIR"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=${CAKEC_CACHE_DIR:-/tmp/cakec-$NAME-cache}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
status=0
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 300 python3 "$SCRIPT" --samples "${SAMPLES:-120}" --json "$OUTDIR/$NAME.json" \
  2>&1 | tee "$OUTDIR/$NAME.log" | grep -v "Warning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
echo "== compute-sanitizer (--check-only), filtered to $PREFIX"
for tool in memcheck racecheck synccheck; do
  timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name "kns=$PREFIX" \
    python3 "$SCRIPT" --check-only > "$OUTDIR/san-$tool.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "$tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' "$OUTDIR/san-$tool.log" | head -3 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
