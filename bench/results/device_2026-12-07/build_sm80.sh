#!/usr/bin/env bash
# Here (no GPU): lower the alias-race verdict programs (lower_sm80.py) and
# build each runner for sm_90a, as harness/verdicts/run_generic.sh does.
set -euo pipefail
cd "$(dirname "$0")/../../.."
rm -rf harness/verdicts/generated/sm80
python3 bench/results/device_2026-12-07/lower_sm80.py 2>/dev/null
for f in harness/verdicts/generated/sm80/*.main.cu; do
  "${NVCC:-/usr/local/cuda/bin/nvcc}" -gencode=arch=compute_90a,code=sm_90a -std=c++17 -O2 -w "$f" \
    -o "${f%.main.cu}.bin" -lcuda &
done
wait
ls harness/verdicts/generated/sm80/*.bin
