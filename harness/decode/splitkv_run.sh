#!/usr/bin/env bash
# harness/decode/splitkv_run.sh - the split-KV decode example beside the single-block one, in
# one device call (bench/results/decode_splitkv_2026-12-05): here `bash harness/torch/stage.sh`,
# there `bash harness/decode/splitkv_run.sh` with harness/torch/tools carried (SINGLE=0: the
# split example only; PART_ROWS="8 64": both partial sizes). Logs and JSON in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}; mkdir -p "$OUT"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=/tmp/cc
T=1x4096,1x32768,2x8192,4x4096,8x4096,8x32768,32x4096,128x4096
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# PART_ROWS (space-separated, default 8, the example's own): the split example's -DPART_ROWS=
# variants, each in splitkv.log (8) or splitkv_rowsN.log, its sanitizer runs in san-[rowsN-]TOOL.log
for pr in ${PART_ROWS:-8}; do
  sfx=$([ "$pr" = 8 ] || echo "_rows$pr")
  timeout 200 python3 harness/decode/decode_check.py --source attention_decode_gqa_splitkv_sm90a.cake -D PART_ROWS=$pr \
    --samples 120 --json $OUT/splitkv$sfx.json --timed $T > $OUT/splitkv$sfx.log 2>&1; echo "splitkv PART_ROWS=$pr exit $?"
  grep -E "B=|/ ours|CORRECT|FAIL|refused|kernel:" $OUT/splitkv$sfx.log | grep -v "^    [a-z0-9]* *[0-9]" | head -80
done
[ "${SINGLE:-1}" = 1 ] && timeout 150 python3 harness/decode/decode_check.py --samples 120 --json $OUT/single.json --timed $T > $OUT/single.log 2>&1; echo "single exit $?"
grep -E "/ ours|CORRECT|FAIL" $OUT/single.log | head -40
for pr in ${PART_ROWS:-8}; do
  sfx=$([ "$pr" = 8 ] || echo "rows$pr-")
  for t in memcheck racecheck synccheck; do
    timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 --kernel-name kns=attention_decode \
      python3 harness/decode/decode_check.py --source attention_decode_gqa_splitkv_sm90a.cake -D PART_ROWS=$pr --check-only \
      > $OUT/san-$sfx$t.log 2>&1
    echo "PART_ROWS=$pr $t exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' $OUT/san-$sfx$t.log | tr '\n' ' ')"
  done
done
