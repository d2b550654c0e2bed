#!/usr/bin/env bash
# Device (carry harness/fp8/generated): the fp8 view-store kernel against
# torch (harness/fp8/fp8_store_check.py) and the fp8 attention forward
# against float64 (harness/attention/fp8_check.py: correctness, then timed
# beside cuDNN's bf16 forward), then (unless SANITIZE=0) both under
# compute-sanitizer memcheck, racecheck and synccheck filtered to them.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue37_d}
mkdir -p "$OUT"
L=harness/fp8/generated/store/fp8_view_store.so
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
AT=harness/fp8/generated/store/attention_fwd_fp8.so
timeout 60 python3 harness/fp8/fp8_store_check.py $L 2>&1 | tee "$OUT/fp8_store.log"
timeout 120 python3 harness/attention/fp8_check.py $AT 2>&1 | tee "$OUT/fp8_attention.log"
[ "${SANITIZE:-1}" = 0 ] && exit 0
for tool in memcheck racecheck synccheck; do
  timeout 90 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=fp8_view_store \
    python3 harness/fp8/fp8_store_check.py $L > /tmp/san-$tool.log 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAILURES' /tmp/san-$tool.log | tr '\n' ' ')" | tee -a "$OUT/fp8_store.log"
  timeout 90 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=attention_fwd_fp8 \
    python3 harness/attention/fp8_check.py $AT --check-only > /tmp/san-a-$tool.log 2>&1
  echo "attention $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAILURES' /tmp/san-a-$tool.log | tr '\n' ' ')" | tee -a "$OUT/fp8_attention.log"
done
