#!/usr/bin/env bash
# harness/decode/run.sh - examples/attention_decode_gqa_sm90a.cake on
# the GPU in one device call. Here first: harness/torch/stage.sh (the
# compiler, carried as harness/torch/tools); there: bash harness/decode/run.sh
# 1. decode_check.py: correctness against float32 attention at several
#    batches, lengths and input scales, the launcher's refusal of L < 128,
#    then CUPTI timing beside torch's SDPA backends; 2. compute-sanitizer
#    memcheck, racecheck and synccheck on `decode_check.py --check-only`,
#    filtered to our kernel. Logs in ${OUT:-harness/decode/out}.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/decode/out}
mkdir -p "$OUTDIR"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=${CAKEC_CACHE_DIR:-/tmp/cakec-decode-cache}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
status=0
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 300 python3 harness/decode/decode_check.py --samples "${SAMPLES:-120}" --json "$OUTDIR/decode.json" \
  2>&1 | tee "$OUTDIR/decode.log" | grep -v "Warning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
echo "== compute-sanitizer (--check-only), filtered to attention_decode_gqa"
for tool in memcheck racecheck synccheck; do
  timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=attention_decode \
    python3 harness/decode/decode_check.py --check-only > "$OUTDIR/san-$tool.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "$tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' "$OUTDIR/san-$tool.log" | head -3 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
