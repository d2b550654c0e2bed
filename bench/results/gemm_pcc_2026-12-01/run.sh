#!/usr/bin/env bash
# One device call (carry harness/gemm/generated), after
#   CAKEC=build-test/bin/cakec bash harness/gemm/variants.sh bench/results/gemm_pcc_2026-12-01/variants.txt
#
#   bash bench/results/gemm_pcc_2026-12-01/run.sh NAME...
#
# times the named variants beside cuBLAS (harness/gemm/run.sh: CUPTI, L2
# flushed, median of 120, every element checked) at SHAPES (default: issue
# 19's five), runs compute-sanitizer on those named in SANITIZE (default
# none) at SAN_SHAPES, and with COUNTERS="M N K" collects Nsight Compute
# counters of each named kernel and cuBLAS's at that shape.
cd "$(dirname "$0")/../../.." || exit 2
[ $# -ge 1 ] || { echo "usage: $0 NAME..." >&2; exit 2; }
G=harness/gemm/generated
OUTDIR=${OUT:-harness/gemm/out}
mkdir -p "$OUTDIR"
files=()
for n in "$@"; do files+=("$G/$n.cu"); done
PREBUILT=$G/bin SHAPES=${SHAPES:-@harness/gemm/shapes/large5.txt} SANITIZE=${SANITIZE:-0} \
  bash harness/gemm/run.sh "${files[@]}" > "$OUTDIR/run.txt" 2>&1
st=$?
grep -E "^[0-9]+x|^geometric|^== .*bench|INCORRECT|FAIL|ALL CORRECT" "$OUTDIR/run.txt"
grep -h "SUMMARY" "$OUTDIR"/san-*.log 2>/dev/null
if [ -n "${COUNTERS:-}" ]; then
  NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  M="sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second"
  M="$M,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,smsp__inst_executed.sum"
  for n in "$@"; do
    # shellcheck disable=SC2086  # COUNTERS is M N K
    "$NCU" --clock-control none --kernel-name regex:'gemm_bf16|nvjet_sm90_tst' --section WarpStateStats --metrics "$M" \
      "$G/bin/$n" --check $COUNTERS > "$OUTDIR/ncu-$n.txt" 2>&1
    grep -E "^  [a-zA-Z_0-9]+.*\(|${M//,/|}|Warp Cycles Per Issued" "$OUTDIR/ncu-$n.txt" | sed "s/^/$n /"
  done
fi
exit $st
