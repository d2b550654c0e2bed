#!/usr/bin/env bash
# Device side of gen.sh: each kernel 2000 times against its expected output
# (check.cu), then compute-sanitizer memcheck, racecheck, synccheck on 20
# launches. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")" || exit 2
OUT=${OUT:-/tmp/safety_ahead}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
status=0
for f in ahead2_ring8:2560: ahead4_ring4:3072: ahead3_before_wait:3072: ahead4_drain:4096:-DHASZ\ -DZFROM=8\ -DZCOLS=1024; do
  IFS=: read -r name xc extra <<< "$f"
  # shellcheck disable=SC2086
  /usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -DKFILE="\"generated/$name.cu\"" \
    -DXC=$xc $extra check.cu -o /tmp/$name || { echo "build $name failed"; status=1; continue; }
  echo "$name: $(timeout 60 /tmp/$name 2000)" | tee -a "$OUT/check.log"; [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  for tool in memcheck racecheck synccheck; do
    timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 /tmp/$name 20 > "$OUT/$name-$tool.log" 2>&1
    rc=$?; [ $rc -eq 0 ] || status=1
    echo "$name $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$name-$tool.log" | head -1)" | tee -a "$OUT/check.log"
  done
done
echo "exit $status"; exit $status
