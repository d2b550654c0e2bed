#!/usr/bin/env bash
# bench/results/multistage_2026-12-07/verdicts/run.sh (device; carry
# harness/gemm/generated after gen.sh): each program correct or not at two
# shapes, then racecheck on our kernel alone at 512x256x2048 (and
# 256x128x96). Expected: sync_after_first no hazard; the other two a
# hazard between a warp's ldmatrix reads and another thread's cp.async
# over them, if racecheck sees cp.async writes.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=harness/gemm/generated
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
for n in v_first v_second v_nosync; do
  echo "== $n: $(SHAPES="512x256x2048 2048x2048x2048" timeout 120 $G/bin/$n 2>&1 | grep -E 'CORRECT|WRONG|FAIL|^[0-9]+x' | tr '\n' ' ')"
  echo "   racecheck: $(timeout 200 "$SAN" --tool racecheck $G/bin/$n --ours-only 512 256 2048 256 128 96 2>&1 | grep -E 'RACECHECK SUMMARY|Race reported' | head -3 | tr '\n' ' ')"
done
