#!/usr/bin/env bash
# The device side of gen.sh: builds each form, checks and times them in one
# process (harness/rows/rows_bench.py: beside PyTorch eager, torch.compile
# and a copy of as many bytes; CUPTI, L2 flushed, median of SAMPLES), then
# compute-sanitizer on the 16-warp form. GEN (the generated forms) and
# SAN_TAG (the form the sanitizers run) let other sweeps reuse it
# (bench/results/softmax_staged_2026-12-06/run.sh).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUTDIR=${OUT:-/tmp/softmax_long}
GEN=${GEN:-harness/rows/generated/sweep}
SAN_TAG=${SAN_TAG:-w16}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
status=0
SPECS=""
for f in "$GEN"/*.cu; do
  tag=$(basename "$f" .cu)
  so=/tmp/cake_softmax_$tag.so
  ( "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -lineinfo -Xptxas -v -Xcompiler -fPIC -shared \
      -o "$so" "$f" > "$OUTDIR/build-$tag.log" 2>&1 && cp "${f%.cu}.json" "${so%.so}.json" ) &
  SPECS="$SPECS $so:softmax:32768:1"
done
wait
for f in "$GEN"/*.cu; do
  tag=$(basename "$f" .cu)
  echo "built $tag: $(grep -E 'registers' "$OUTDIR/build-$tag.log" | head -1 | sed 's/.*: //'); $(grep -E 'spill' "$OUTDIR/build-$tag.log" | head -1 | sed 's/.*: *//')"
done
# shellcheck disable=SC2086
timeout 300 python3 harness/rows/rows_bench.py --samples "${SAMPLES:-100}" --rows "${ROWS:-16384,65536}" \
  --json "$OUTDIR/rows.json" $SPECS 2>&1 | tee "$OUTDIR/bench.log" | grep -v "Warning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || { echo "exit $status"; exit $status; }
for tool in memcheck racecheck synccheck; do
  timeout 120 "$SAN" --tool "$tool" --error-exitcode 9 --kernel-name kns=softmax_rows \
    python3 harness/rows/rows_bench.py --check-only "/tmp/cake_softmax_$SAN_TAG.so:softmax:32768:1" \
    > "$OUTDIR/san-$tool.log" 2>&1
  rc=$?; [ $rc -eq 0 ] || status=1
  echo "$tool softmax_rows: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAIL' "$OUTDIR/san-$tool.log" | head -2 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
