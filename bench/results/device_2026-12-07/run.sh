#!/usr/bin/env bash
# The session's device call (2026-12-07; carry harness/gemm/generated/p,
# harness/gemm/generated/d, harness/fp8/generated, harness/rows/generated,
# generated here first: harness/gemm/build.sh of the family into p/bin and of
# d/cm144.cu, d/w192.cu into d/bin; bench/results/issue37_2026-12-06c/gen.sh;
# bench/results/softmax_staged_2026-12-06/gen.sh; harness/verdicts/generated
# from bench/results/device_2026-12-07/lower_sm80.py, its two .main.cu built
# here for sm_90a as NAME.bin, `build_sm80.sh`). First the GPU verdict of safety.alias-race in
# mma.sync roles: both programs run, then racecheck on each. On an H200 the runs owed
# to it (bench/results/h200_2026-12-06/run.sh); on an H100 the question of
# bench/results/issue36_2026-12-06d/run3.sh (why 128x144 tiles in 2x1
# clusters lose where M's last tile is short).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/device_2026-12-07}
mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $gpu; $(date -u +%FT%TZ)"
V=harness/verdicts/generated/sm80
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for n in pass_alias_mma_sync fail_alias_mma_sync pass_alias_hand_off_scope fail_alias_hand_off_scope \
  pass_alias_loop_carried_sm80 fail_alias_loop_carried_sm80 pass_alias_tx_hop fail_alias_tx_hop; do
  CAKE_CHECK_WAITS_SECONDS=1 timeout 30 $V/$n.bin 2>&1 | tail -2
  for tool in racecheck synccheck; do
    echo "$n $tool: $(CAKE_CHECK_WAITS_SECONDS=30 timeout 60 "$SAN" --tool $tool $V/$n.bin 2>&1 | tee "$OUT/$n.$tool.txt" |
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
  done
done
case "$gpu" in
*H200*) OUT=$OUT/h200 bash bench/results/h200_2026-12-06/run.sh ;;
*) OUT=$OUT/run3 bash bench/results/issue36_2026-12-06d/run3.sh ;;
esac
