#!/usr/bin/env bash
# On the device (generated/ travels untracked): each form launched 2000
# times with X of 2048 columns (check.cu of safety_ahead_2026-12-06: Y must
# hold X's blocks in order), then compute-sanitizer memcheck (a read past
# X's 2048 columns would be an error) and racecheck.
set -uo pipefail
cd "$(dirname "$0")" || exit 2
OUT=${OUT:-/tmp/launcher_guarded}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
status=0
for name in ahead2_ring8 ahead4_ring4 ahead3_before_wait; do
  /usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -DKFILE="\"$PWD/generated/$name.cu\"" \
    -DXC=2048 ../safety_ahead_2026-12-06/check.cu -o /tmp/$name || { echo "build $name failed"; status=1; continue; }
  echo "$name: $(timeout 60 /tmp/$name 2000)" | tee -a "$OUT/check.log"; [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  for tool in memcheck racecheck; do
    timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/$name 20 > "$OUT/$name-$tool.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    echo "$name $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$name-$tool.log" | head -1)" | tee -a "$OUT/check.log"
  done
done
echo "exit $status"; exit $status
