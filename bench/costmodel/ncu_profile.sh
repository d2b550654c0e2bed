# shellcheck shell=bash
# bench/costmodel/ncu_profile.sh - sourced by after.sh and stages.sh (on the
# H200): one gen.sh binary at one shape under Nsight Compute, as the
# limiter rule reads it (limiter.py).
#
#   ncu_metrics LOGDIR        -> the metrics beside SpeedOfLight this ncu knows
#   ncu_profile NAME BIN M N K CAP METRICS LOGDIR
#                             -> LOGDIR/ncu-NAME.txt and the line limiter.py
#                                reads: "ncu NAME (BIN M x N x K): rc R, S s";
#                                under 15 s of CAP, "ncu NAME: SKIPPED (...)"
ncu_metrics() {
  local ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  "$ncu" --query-metrics --chip gh100 > "$1/ncu-metrics.txt" 2>&1
  local extra="sm__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,lts__t_bytes.sum"
  for m in sm__pipe_tensor_op_gmma_cycles_active sm__pipe_shared_cycles_active; do
    grep -q "^$m " "$1/ncu-metrics.txt" && extra="$extra,$m.avg.pct_of_peak_sustained_active"
  done
  printf '%s' "$extra"
}

ncu_profile() {
  local name=$1 bin=$2 M=$3 N=$4 K=$5 cap=$6 metrics=$7 logs=$8 t0=$SECONDS
  local ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  if [ "$cap" -lt 15 ]; then
    echo "ncu $name: SKIPPED (out of time)"
    return 0
  fi
  # Our kernels: a schedule's own name, or a family's route names (cuBLAS's are nvjet_*).
  timeout "$cap" "$ncu" --clock-control none --kernel-name regex:'gemm|^persistent|^splitk|^decode|^tiny|^mid$|^tiled$|^small' \
    --section SpeedOfLight --metrics "$metrics" \
    "bench/costmodel/prebuilt/$bin" --check "$M" "$N" "$K" > "$logs/ncu-$name.txt" 2>&1
  echo "ncu $name ($bin $M x $N x $K): rc $?, $((SECONDS - t0)) s"
}
