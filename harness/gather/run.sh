#!/usr/bin/env bash
# harness/gather/run.sh - examples/gather_rows_sm90a.cake (lm.load_scalar) on
# the GPU in one device call. Here first: harness/torch/stage.sh (the
# compiler, carried as harness/torch/tools); there: bash harness/gather/run.sh
# 1. gather_check.py: correctness at seven shapes through the launcher and
#    the torch operator, the launcher's refusals, an index outside the
#    declared range stopping the kernel with its message, then CUPTI timing
#    beside index_select, F.embedding and a copy; 2. compute-sanitizer
#    memcheck, racecheck and synccheck on `gather_check.py --check-only`,
#    filtered to our kernel. Logs in ${OUT:-harness/gather/out}.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/gather/out}
mkdir -p "$OUTDIR"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=${CAKEC_CACHE_DIR:-/tmp/cakec-gather-cache}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
status=0
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 300 python3 harness/gather/gather_check.py --samples "${SAMPLES:-120}" --json "$OUTDIR/gather.json" \
  2>&1 | tee "$OUTDIR/gather.log" | grep -v "Warning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
echo "== compute-sanitizer (--check-only), filtered to gather_rows"
for tool in memcheck racecheck synccheck; do
  timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=gather_rows \
    python3 harness/gather/gather_check.py --check-only > "$OUTDIR/san-$tool.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "$tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' "$OUTDIR/san-$tool.log" | head -3 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
