#!/usr/bin/env bash
# bench/results/device_2026-12-07b/run2.sh: the second call (nvidia-h200):
# the racecheck controls (control.cu, variants 0-5), then on an H200 the runs
# owed to it (bench/results/h200_2026-12-06/run.sh; carry as in
# bench/results/device_2026-12-07/run.sh). Usage: OUT=dir bash run2.sh
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/device_2026-12-07b}
mkdir -p "$OUT"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
/usr/local/cuda/bin/nvcc -arch=sm_90a -O2 -lineinfo bench/results/device_2026-12-07b/control.cu -o "$OUT/control" || exit 1
for v in 0 1 2 3 4 5; do
  echo "control variant $v: $(timeout 60 "$SAN" --tool racecheck "$OUT/control" $v 2>&1 | grep -E 'RACECHECK SUMMARY|Race reported' | head -3 | tr '\n' ' ')"
done
rm -f "$OUT/control"
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
*H200*) OUT=/tmp/h200 bash bench/results/h200_2026-12-06/run.sh ;;
*) echo "not an H200: the owed runs wait" ;;
esac
