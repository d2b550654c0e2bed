#!/usr/bin/env bash
# Device (carry harness/fp8/generated): the fp8 view-store kernel against
# torch (harness/fp8/fp8_store_check.py), then (unless SANITIZE=0) under
# compute-sanitizer memcheck, racecheck and synccheck filtered to it.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue37_d}
mkdir -p "$OUT"
L=harness/fp8/generated/store/fp8_view_store.so
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 python3 harness/fp8/fp8_store_check.py $L 2>&1 | tee "$OUT/fp8_store.log"
[ "${SANITIZE:-1}" = 0 ] && exit 0
for tool in memcheck racecheck synccheck; do
  timeout 90 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=fp8_view_store \
    python3 harness/fp8/fp8_store_check.py $L > /tmp/san-$tool.log 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAILURES' /tmp/san-$tool.log | tr '\n' ' ')" | tee -a "$OUT/fp8_store.log"
done
