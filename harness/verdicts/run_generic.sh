#!/usr/bin/env bash
# harness/verdicts/run_generic.sh - the GPU verdict of each gate test that
# generic.py lowered, in ONE device call (carry the folder):
#
#   python3 harness/verdicts/generic.py harness/verdicts/gate_tests   # here
#   OUT=$OUT bash harness/verdicts/run_generic.sh [DIR]               # device
#
# Builds each NAME.main.cu (16 at a time), runs it with every wait limited
# to 0.25 s (CAKE_CHECK_WAITS_SECONDS) under `timeout 60`, 4 at a time, and
# gives the programs that ran compute-sanitizer's racecheck, synccheck and
# memcheck (waits limited to 30 s: the tools slow the kernel), 6 at a time.
# $OUT/generic.tsv: name, verdict (hang, error, refused, ran, timeout), the
# runner's lines; $OUT/sanitizer.tsv: name, tool, summary; every output in
# $OUT/generic.log.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
DIR=${1:-harness/verdicts/gate_tests}
OUTDIR=${OUT:-harness/verdicts/out}
mkdir -p "$OUTDIR"
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
ls "$DIR"/*.main.cu | xargs -P 16 -I{} sh -c 'f={}; n=$(basename $f .main.cu); [ -x "'"$DIR"'/$n.bin" ] || ${NVCC:-/usr/local/cuda/bin/nvcc} -gencode=arch=compute_90a,code=sm_90a -std=c++17 -O2 -w "$f" -o "'"$DIR"'/$n.bin" -lcuda > "'"$DIR"'/$n.build.log" 2>&1 || echo "build failed: $n"'
echo "== built $(ls "$DIR"/*.bin 2>/dev/null | wc -l) $(date -u +%H:%M:%S)"
one() {
  n=$1
  out=$(CAKE_CHECK_WAITS_SECONDS=0.25 timeout 60 "$DIR/$n.bin" 2>&1)
  rc=$?
  if [ $rc -eq 124 ]; then v=timeout
  elif grep -q 'run.hang' <<< "$out"; then v=hang
  elif grep -q ': error$' <<< "$out" || [ $rc -gt 6 ] || [ $rc -eq 4 ] || [ $rc -eq 5 ]; then v=error
  elif grep -q ': ran$' <<< "$out"; then v=ran
  else v=refused
  fi
  printf '%s\t%s\t%s\n' "$n" "$v" "$(grep -v '^ *$' <<< "$out" | grep -v 'note:' | head -3 | tr '\n\t' '  ')"
  { echo "==== $n (exit $rc)"; echo "$out"; } >> "$OUTDIR/generic.log"
}
san() {
  n=$1
  for tool in racecheck synccheck memcheck; do
    s=$(CAKE_CHECK_WAITS_SECONDS=30 timeout 120 ${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer} --tool $tool "$DIR/$n.bin" 2>&1 |
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|run.hang' | head -1)
    printf '%s\t%s\t%s\n' "$n" "$tool" "${s:-no summary (timeout?)}"
  done
}
export -f one san
export DIR OUTDIR
: > "$OUTDIR/generic.log"
ls "$DIR"/*.bin | xargs -n1 basename | sed 's/\.bin$//' | xargs -P 4 -I{} bash -c 'one {}' | sort > "$OUTDIR/generic.tsv"
echo "== ran $(wc -l < "$OUTDIR/generic.tsv") $(date -u +%H:%M:%S)"
cut -f2 "$OUTDIR/generic.tsv" | sort | uniq -c
awk -F'\t' '$2 == "ran" {print $1}' "$OUTDIR/generic.tsv" | xargs -P 6 -I{} bash -c 'san {}' | sort > "$OUTDIR/sanitizer.tsv"
echo "== sanitizers on $(cut -f1 "$OUTDIR/sanitizer.tsv" | sort -u | wc -l) $(date -u +%H:%M:%S)"
cut -f2,3 "$OUTDIR/sanitizer.tsv" | sed 's/[0-9][0-9]* hazard/N hazard/' | sort | uniq -c
