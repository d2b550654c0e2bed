#!/usr/bin/env bash
# harness/torch/run.sh - the Python package and its torch operators on the
# GPU, in ONE call on the device machine (10 minutes at most there).
#
# Here first: harness/torch/stage.sh (the compiler into harness/torch/tools/,
# which git ignores), then one device call with carry ["harness/torch/tools"]
# and the command
#   bash harness/torch/run.sh
# Steps, each under `timeout`:
#   1. the GPU and the tools; cakec runs there (its version);
#   2. overhead.cu built with nvcc (a shared library) against the RMSNorm launcher's header
#      (cakec --emit=header);
#   3. torch_check.py: load (cold and warm), every example through the
#      package and its operators, torch.compile of a block, CUDA graphs, host
#      overhead per call (its documentation says what each checks).
# Output in $OUT (default harness/torch/out): torch_check.log, torch_check.json.
# Exit status: torch_check.py's (0: every check passed, every bar met).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/torch/out}
mkdir -p "$OUTDIR"
. harness/torch/tools.sh
log=$OUTDIR/torch_check.log
{
  echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv
  "$NVCC" --version | tail -1
  "$CAKEC" --version
} > "$log" 2>&1
build=$(mktemp -d)
"$CAKEC" examples/rmsnorm_sm90a.cake --emit=header -o "$build/rmsnorm.h" >> "$log" 2>&1 &&
  timeout 120 "$NVCC" -std=c++17 -O2 -shared -Xcompiler -fPIC -I"$build" harness/torch/overhead.cu \
    -o "$build/overhead.so" >> "$log" 2>&1 ||
  { echo "run.sh: building overhead.cu failed" | tee -a "$log"; exit 1; }
timeout -k 10 "${BUDGET:-540}" python3 harness/torch/torch_check.py --overhead-lib "$build/overhead.so" \
  --json "$OUTDIR/torch_check.json" ${SECTIONS:+--sections "$SECTIONS"} >> "$log" 2>&1
status=$?
cat "$log"
exit $status
