#!/usr/bin/env bash
# Device call 3 (carry harness/gemm/generated/d; binaries of gen.sh, call 1):
# why 128x144 tiles in 2x1 clusters (cm144) are slower than 128x192 tiles
# (w192) where M's last tile of 128 rows is short: both at M = 1416 / 1472
# beside M = 1536 with the same N and K, one process each, then Nsight
# Compute's Speed Of Light and the bytes each level moved for cm144 at
# 1416x1528x12288 and 1536x1528x12288.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/issue36_d3}
mkdir -p "$OUT"
G=harness/gemm/generated/d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S="1416x1528x12288 1536x1528x12288 1472x1472x8192 1536x1472x8192 1440x1536x2048 1536x1536x2048"
PREBUILT=$G/bin SHAPES="$S" SANITIZE=0 OUT=$OUT/t timeout 150 bash harness/gemm/run.sh $G/cm144.cu $G/w192.cu 2>&1 \
  | grep -E "^[0-9]+x|geometric|== .*bench|CORRECT|FAIL|WRONG"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="dram__bytes_read.sum,lts__t_bytes.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,gpc__cycles_elapsed.max"
for s in "1416 1528 12288" "1536 1528 12288"; do
  timeout 120 "$NCU" --clock-control none --kernel-name regex:'gemm' --section SpeedOfLight --metrics "$M" \
    $G/bin/cm144 --check $s > "$OUT/ncu-cm144-${s// /x}.txt" 2>&1
  echo "ncu cm144 $s: rc $?"
  grep -E "gemm_bf16|Duration|Throughput|dram__bytes|lts__t_bytes|gmma_cycles|cycles_active.avg|elapsed.max" "$OUT/ncu-cm144-${s// /x}.txt" | head -14
done
(cd "$OUT" && tar czf logs.tgz t ncu-*.txt && rm -rf t ncu-*.txt)
