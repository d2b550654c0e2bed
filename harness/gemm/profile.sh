#!/usr/bin/env bash
# harness/gemm/profile.sh - Nsight Compute counters for a generated GEMM and
# cuBLAS at one shape, in one call on the device machine (clocks left alone):
#   bash harness/gemm/profile.sh GENERATED.cu [M N K]
# EXTRA_METRICS (comma-separated ncu metric names) are collected beside the
# standard ones. STALLS=1 adds a pass for the stall reasons (the Warp State
# Statistics breakdown, cycles per issued instruction by reason) into
# ncu-NAME-MxNxK-stalls.txt. PREBUILT=dir profiles dir/<GENERATED without .cu> (built here
# by harness/gemm/build.sh); otherwise it is built first, for KERNEL_NAME
# (default gemm_bf16).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
GEN=$1
M=${2:-4096}; N=${3:-4096}; K=${4:-4096}
OUTDIR=${OUT:-harness/gemm/out}
mkdir -p "$OUTDIR"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
if [ -n "${PREBUILT:-}" ]; then
  BIN=$PREBUILT/$(basename "$GEN" .cu)
  export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
else
  BIN=/tmp/gemm_profile
  bash harness/gemm/build.sh "$GEN" "${KERNEL_NAME:-gemm_bf16}" -o "$BIN" || exit 1
fi
# Our kernel and cuBLAS's bf16-output GEMM (the f32-output reference kernel
# runs too; its name tells it apart).
"$NCU" --clock-control none --kernel-name regex:'gemm|sm90|xmma|cutlass' \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,lts__t_bytes.sum,dram__bytes_read.sum${EXTRA_METRICS:+,$EXTRA_METRICS} \
  "$BIN" --check "$M" "$N" "$K" > "$OUTDIR/ncu-$(basename "$GEN" .cu)-${M}x${N}x${K}.txt" 2>&1
status=$?
if [ "${STALLS:-0}" = 1 ]; then
  "$NCU" --clock-control none --kernel-name regex:'gemm|sm90|xmma|cutlass' --section WarpStateStats --print-details all \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    "$BIN" --check "$M" "$N" "$K" > "$OUTDIR/ncu-$(basename "$GEN" .cu)-${M}x${N}x${K}-stalls.txt" 2>&1 || status=1
fi
grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|gmma|hmma|lts__t_bytes|dram__bytes|Registers Per|Achieved Occupancy|Stall|Warp Cycles Per Issued${EXTRA_METRICS:+|${EXTRA_METRICS//,/|}}" \
  "$OUTDIR/ncu-$(basename "$GEN" .cu)-${M}x${N}x${K}.txt" | head -80
exit $status
