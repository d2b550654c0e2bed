#!/usr/bin/env bash
# Device (carry harness/fp8/generated): the view-store kernel with its
# wgmma's A from registers against torch (harness/fp8/fp8_store_check.py;
# fp8_a_regs_check.py: two m64 blocks of A per warpgroup),
# the fp8 attention forward with P
# from registers against float64 at three shapes, the form through shared
# memory beside it (--other), both timed beside cuDNN's bf16 forward in one
# process; then (unless SANITIZE=0) the register form under
# compute-sanitizer memcheck, racecheck and synccheck filtered to it.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/fp8att}
mkdir -p "$OUT"
G=harness/fp8/generated/att
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 60 python3 harness/fp8/fp8_store_check.py $G/fp8_view_store_regs.so 2>&1 | tee "$OUT/fp8_a_regs.log"
[ -f $G/fp8_a_regs_two_blocks.so ] &&
  timeout 60 python3 harness/fp8/fp8_a_regs_check.py $G/fp8_a_regs_two_blocks.so 2>&1 | tee -a "$OUT/fp8_a_regs.log"
timeout 240 python3 harness/attention/fp8_check.py $G/attention_fwd_fp8_regs.so --other $G/attention_fwd_fp8_smem.so \
  --samples "${SAMPLES:-100}" 2>&1 | tee "$OUT/fp8_attention.log"
[ "${SANITIZE:-1}" = 0 ] && exit 0
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  timeout 90 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=attention_fwd_fp8 \
    python3 harness/attention/fp8_check.py $G/attention_fwd_fp8_regs.so --check-only > "$OUT/san-$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAILURES' "$OUT/san-$tool.log" | tr '\n' ' ')" | tee -a "$OUT/fp8_attention.log"
done
