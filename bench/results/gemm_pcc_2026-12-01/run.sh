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
# counters of each named kernel and cuBLAS's at that shape (harness/gemm/profile.sh).
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
  # the clock, DRAM writes, duration and instructions beside profile.sh's own counters
  for n in "$@"; do
    # shellcheck disable=SC2086  # COUNTERS is M N K
    PREBUILT=$G/bin OUT=$OUTDIR EXTRA_METRICS=sm__cycles_elapsed.avg.per_second,dram__bytes_write.sum,gpu__time_duration.sum,smsp__inst_executed.sum \
      bash harness/gemm/profile.sh "$G/$n.cu" $COUNTERS | sed "s/^/$n /"
  done
fi
exit $st
