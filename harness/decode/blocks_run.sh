#!/usr/bin/env bash
# harness/decode/blocks_run.sh - the single-block GQA decode example built for two
# blocks per multiprocessor (blocks_per_sm=2) beside its default form and SDPA's
# backends, in one process per variant, in one device call: here
# `bash harness/torch/stage.sh`, there `bash harness/decode/blocks_run.sh` with
# harness/torch/tools carried. Variants (VARIANTS, ';'-separated -D lists):
#   64-key tiles, 2 stages (96 KB a block); 64-key tiles, 3 stages, O over Q (112 KB).
# compute-sanitizer (memcheck, racecheck, synccheck) on each. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}; mkdir -p "$OUT"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=/tmp/cc
T=${TIMED:-128x4096,64x4096,32x4096,8x4096,128x512,8x32768}
VARIANTS=${VARIANTS:-"BN=64 BLOCKS=2 MATH_REGS=232;BN=64 STAGES=3 O_OVER_Q=1 BLOCKS=2 MATH_REGS=232"}
status=0; i=0
IFS=';' read -ra VS <<< "$VARIANTS"
for v in "${VS[@]}"; do
  i=$((i + 1)); D=""; for d in $v; do D="$D -D $d"; done
  echo "== variant $i: $v"
  timeout 200 python3 harness/decode/decode_check.py $D --beside attention_decode_gqa_sm90a.cake --samples ${SAMPLES:-120} \
    --json $OUT/v$i.json --timed $T > $OUT/v$i.log 2>&1
  rc=$?; [ $rc = 0 ] || status=1; echo "exit $rc"
  grep -E "B=|/ ours|CORRECT|FAIL|refused" $OUT/v$i.log | grep -v "^    [a-z0-9_]* *[0-9]" | head -60
  for t in memcheck racecheck synccheck; do
    timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 --kernel-name kns=attention_decode_gqa \
      python3 harness/decode/decode_check.py $D --check-only > $OUT/san-v$i-$t.log 2>&1 || status=1
    echo "variant $i $t $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' $OUT/san-v$i-$t.log | tr '\n' ' ')"
  done
done
exit $status
