#!/usr/bin/env bash
# harness/decode/paged_run.sh - the paged split-KV decode example
# (examples/attention_decode_gqa_paged_sm90a.cake) on the GPU in one device call:
# here `bash harness/torch/stage.sh`, there `bash harness/decode/paged_run.sh` with
# harness/torch/tools carried. For each page size in PAGES (default "128 256"):
# correctness (a random block table, NaN in the spare pages), timing beside SDPA's
# backends and the contiguous split-KV example in one process (PAGES=64: 64-key tiles,
# -DBN=64 -DSTAGES=4), compute-sanitizer
# (memcheck, racecheck, synccheck) on our kernel. Logs and JSON in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}; mkdir -p "$OUT"
. harness/torch/tools.sh
export CAKEC_CACHE_DIR=/tmp/cc
T=${TIMED:-1x4096,1x32768,2x8192,4x4096,8x4096,8x32768,32x4096,128x4096}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for pg in ${PAGES:-128 256}; do
  X=""; [ "$pg" -lt 128 ] && X="-D BN=$pg -D STAGES=4"   # pages below the 128-key tile: tiles of a page, 4 stages
  if [ "${SAN_ONLY:-0}" = 0 ]; then   # SAN_ONLY=1: the sanitizer runs only (each checks correctness too)
  timeout 240 python3 harness/decode/decode_check.py --source attention_decode_gqa_paged_sm90a.cake -D PAGE=$pg $X \
    --paged $pg --beside attention_decode_gqa_splitkv_sm90a.cake --samples ${SAMPLES:-120} --json $OUT/paged$pg.json --timed $T \
    > $OUT/paged$pg.log 2>&1
  rc=$?; [ $rc = 0 ] || status=1
  echo "paged PAGE=$pg exit $rc"
  grep -E "B=|/ ours|CORRECT|FAIL|refused|kernel:|beside:" $OUT/paged$pg.log | grep -v "^    [a-z0-9_]* *[0-9]" | head -80
  fi
  for t in memcheck racecheck synccheck; do
    timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 --kernel-name kns=attention_decode_gqa_paged \
      python3 harness/decode/decode_check.py --source attention_decode_gqa_paged_sm90a.cake -D PAGE=$pg $X --paged $pg --check-only \
      > $OUT/san-$pg-$t.log 2>&1 || status=1
    echo "PAGE=$pg $t $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' $OUT/san-$pg-$t.log | tr '\n' ' ')"
  done
done
exit $status
