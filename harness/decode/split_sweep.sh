#!/usr/bin/env bash
# harness/decode/split_sweep.sh - the split-KV decode example with at least MIN_TILES key
# tiles per block (fewer splits: a shorter serial combine in the last block) beside its
# default (MIN_TILES = 4 since 2026-12-06; 1 before, which the runs of that day compared
# against) and SDPA's backends in one process per value, at the small batches;
# compute-sanitizer on MIN_TILES=4. Here `bash harness/torch/stage.sh`, there
# `bash harness/decode/split_sweep.sh` with harness/torch/tools carried. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}; mkdir -p "$OUT"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=/tmp/cc
T=${TIMED:-1x4096,1x32768,2x8192,4x4096,8x4096,1x1024}
status=0
for mt in ${MIN_TILES:-2 4 8}; do
  timeout 200 python3 harness/decode/decode_check.py --source attention_decode_gqa_splitkv_sm90a.cake -D MIN_TILES=$mt \
    --beside attention_decode_gqa_splitkv_sm90a.cake --samples ${SAMPLES:-120} --json $OUT/min$mt.json --timed $T > $OUT/min$mt.log 2>&1
  rc=$?; [ $rc = 0 ] || status=1; echo "MIN_TILES=$mt exit $rc"
  grep -E "B=.*CUPTI|/ ours|CORRECT|FAIL" $OUT/min$mt.log | head -60
done
# SAN=0 skips the sanitizer runs: MIN_TILES changes only the launcher's grid, the kernel is
# the default's (its device code reads the split count from the grid).
[ "${SAN:-1}" = 1 ] && for t in memcheck racecheck synccheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 --kernel-name kns=attention_decode \
    python3 harness/decode/decode_check.py --source attention_decode_gqa_splitkv_sm90a.cake -D MIN_TILES=4 --check-only \
    > $OUT/san-min4-$t.log 2>&1 || status=1
  echo "MIN_TILES=4 $t $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' $OUT/san-min4-$t.log | tr '\n' ' ')"
done
exit $status
