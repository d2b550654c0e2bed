#!/usr/bin/env bash
# bench/results/device_2026-12-07b/run.sh: does racecheck see raw-PTX mbarrier
# hand-offs (control.cu, variants 0-5)? Then the racecheck reports of the
# pass_ verdict programs of device_2026-12-07 (harness/verdicts/generated/sm80,
# carried), their first hazards. Usage: OUT=dir bash run.sh
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/device_2026-12-07b}
mkdir -p "$OUT"
echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%FT%TZ)"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
/usr/local/cuda/bin/nvcc -arch=sm_90a -O2 -lineinfo bench/results/device_2026-12-07b/control.cu -o "$OUT/control" || exit 1
for v in 0 1 2 3 4 5; do
  echo "control variant $v: $(timeout 60 "$SAN" --tool racecheck "$OUT/control" $v 2>&1 | grep -E 'RACECHECK SUMMARY|Race reported' | head -3 | tr '\n' ' ')"
done
V=harness/verdicts/generated/sm80
for n in pass_alias_hand_off_scope pass_alias_tx_hop; do
  echo "== $n"
  CAKE_CHECK_WAITS_SECONDS=30 timeout 60 "$SAN" --tool racecheck $V/$n.bin 2>&1 | grep -E "Race reported|and (Read|Write)|SUMMARY|ran" | head -12
done
