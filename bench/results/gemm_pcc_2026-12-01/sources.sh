#!/usr/bin/env bash
# One device call (carry harness/gemm/generated): per-instruction execution
# counts and warp stall samples (Nsight Compute source counters, SASS) of
# built variants at one shape, as CSV, and the SASS of each:
#   bash bench/results/gemm_pcc_2026-12-01/sources.sh "M N K" NAME...
cd "$(dirname "$0")/../../.." || exit 2
[ $# -ge 2 ] || { echo "usage: $0 \"M N K\" NAME..." >&2; exit 2; }
SHAPE=$1
shift
G=harness/gemm/generated/bin
OUTDIR=${OUT:-harness/gemm/out}
mkdir -p "$OUTDIR"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for n in "$@"; do
  "$CUOBJDUMP" -sass -fun gemm_bf16 "$G/$n" > "$OUTDIR/$n.sass" 2>&1
  # shellcheck disable=SC2086  # SHAPE is M N K
  "$NCU" --clock-control none --kernel-name gemm_bf16 --section SourceCounters --section WarpStateStats \
    --page source --print-source sass --csv "$G/$n" --check $SHAPE > "$OUTDIR/ncu-$n-sass.csv" 2>&1
done
ls -la "$OUTDIR"
