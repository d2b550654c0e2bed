#!/usr/bin/env bash
# Device (carry harness/fp8/generated/vt, made by gen.sh): the fp8
# attention forward with V transposed in shared memory (FA3's form; the
# copy-ahead default and -DAHEAD=False) against float64 at three shapes, the
# form taking V^T from the caller beside them (--other), all timed beside cuDNN's bf16 forward in one process (CUPTI,
# L2 flushed, median of SAMPLES); then (unless SANITIZE=0) the V-transposing
# kernel under compute-sanitizer memcheck, racecheck and synccheck filtered
# to it.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/fp8vt}
mkdir -p "$OUT"
G=harness/fp8/generated/vt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
# First under -fcheck-waits (a wait that times out reports CAKE_ERROR_HANG
# instead of hanging the device): stop here unless both forms finish.
for n in vt_cw turn_cw; do
  timeout 120 python3 harness/attention/fp8_check.py $G/attention_fwd_fp8_$n.so --check-only 2>&1 | tee -a "$OUT/check_waits.log"
  rc=${PIPESTATUS[0]}
  [ "$rc" = 0 ] || { echo "$n: exit $rc, not run further"; exit 1; }
done
timeout 300 python3 harness/attention/fp8_check.py $G/attention_fwd_fp8_vt.so --other $G/attention_fwd_fp8_turn.so \
  --other $G/attention_fwd_fp8_pre.so \
  --samples "${SAMPLES:-100}" 2>&1 | tee "$OUT/fp8_attention_vt.log"
[ "${SANITIZE:-1}" = 0 ] && exit 0
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  timeout 90 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=attention_fwd_fp8 \
    python3 harness/attention/fp8_check.py $G/attention_fwd_fp8_vt.so --check-only > "$OUT/san-$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAILURES' "$OUT/san-$tool.log" | tr '\n' ' ')" | tee -a "$OUT/fp8_attention_vt.log"
done
