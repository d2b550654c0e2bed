#!/usr/bin/env bash
# harness/verdicts/jitter.sh - the variants that ran clean, lowered again with
# -fjitter (seeded delays before each role operation), and the three
# unmodified examples beside them as controls (they must stay clean):
#
#   bash harness/verdicts/jitter.sh [GENERATED [OUTDIR]]        # here
#   SEEDS="1 2 3" OUT=$OUT bash harness/verdicts/run.sh OUTDIR   # device
#
# GENERATED (default harness/verdicts/generated) holds mutate.py's variants
# and clean.txt, the names of those that ran clean; OUTDIR (default
# harness/verdicts/jitter) gets NAME.cu for each. CAKEC overrides
# build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
GEN=${1:-harness/verdicts/generated}
OUTDIR=${2:-harness/verdicts/jitter}
CAKEC=${CAKEC:-build-test/bin/cakec}
mkdir -p "$OUTDIR"
while read -r n; do
  "$CAKEC" -I . "$GEN/$n.cake" -fno-gates=all -fcheck-waits -fjitter -o "$OUTDIR/$n.cu" 2> /dev/null
done < "$GEN/clean.txt"
for e in gemm_bf16_sm90a gemm_bf16_persistent_sm90a gemm_bf16_pingpong_sm90a; do
  "$CAKEC" -I . "examples/$e.cake" -fcheck-waits -fjitter -o "$OUTDIR/base_$e.cu"
done
echo "$(ls "$OUTDIR"/*.cu | wc -l) files in $OUTDIR"
