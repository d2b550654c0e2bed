#!/usr/bin/env bash
# harness/attention/probe_sanitizer.sh - a control for the sanitizer step of
# run.sh: the filtered compute-sanitizer must see our kernel. Two copies of a
# generated kernel with a planted bug each (a shared-memory write-write race
# between two warps; a store to address 0x10) are run under racecheck and
# memcheck with run.sh's filter; each must be reported.
#   bash harness/attention/probe_sanitizer.sh RACE.cu OOB.cu
# (the copies: a generated .cu with the probe lines inserted after the
# kernel's first __syncthreads(); see bench/results/attention_2026-11-30/README.md)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
status=0
for spec in "racecheck:$1" "memcheck:$2"; do
  tool=${spec%%:*}
  cu=${spec#*:}
  so=/tmp/probe_$(basename "$cu" .cu).so
  "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared -o "$so" "$cu" || { status=1; continue; }
  kernel=$(grep -o '__global__ void __launch_bounds__([0-9, ]*) [a-z_0-9]*' "$cu" | awk '{print $NF}')
  echo "== $tool on $(basename "$cu") (kernel $kernel)"
  timeout 200 "$SAN" --tool "$tool" --launch-timeout 0 --kernel-name "kns=$kernel" python3 harness/attention/attn_bench.py --check-only "$so:${kernel}_launch:noncausal" > /tmp/probe_$tool.log 2>&1
  grep -E "Invalid|hazard|RACECHECK SUMMARY|ERROR SUMMARY|Race reported|in attention" /tmp/probe_$tool.log | head -8
  if grep -qE "[1-9][0-9]* (errors|hazards)" /tmp/probe_$tool.log; then echo "$tool: the planted bug is reported"; else echo "$tool: NOT REPORTED"; status=1; fi
done
exit $status
