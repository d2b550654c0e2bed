#!/usr/bin/env bash
# harness/verdicts/run.sh - the GPU verdict of each variant mutate.py lowered,
# in ONE device call (carry the folder of .cu files):
#
#   python3 harness/verdicts/mutate.py harness/verdicts/generated   # here
#   bash harness/verdicts/run.sh [harness/verdicts/generated]       # device
#
# Builds the GEMM harness around every NAME.cu (16 at a time), then runs each
# `--check` at SHAPE (default 2048 4096 512: more tiles than SMs, so the
# persistent kernels take two tiles a block, and 8 k-steps, two laps of a
# 4-stage ring) with CAKE_CHECK_WAITS_SECONDS=0.25, PAR processes at a time
# (default 4), each under `timeout 60` as a backstop. Verdicts, one line per
# variant in $OUT/verdicts.tsv: hang (the launcher's [run.hang] lines; the
# first is kept), wrong (the harness's WRONG), clean (correct), timeout,
# error (anything else: build failure, another CUDA error). Every output in
# $OUT/runs.log.
#
#   SEEDS="1 2 3" bash harness/verdicts/run.sh DIR
# runs each variant once per seed (CAKE_JITTER_SEED: for variants lowered
# with -fjitter), until one fails; the verdict is that run's, or clean.
#
#   RACECHECK=LIST bash harness/verdicts/run.sh [DIR]
# instead runs compute-sanitizer racecheck on the variants named in the file
# LIST (one a line), our kernel alone (--ours-only) at RACE_SHAPE (default
# 2048 4096 128), PAR at a time, into $OUT/racecheck.tsv (name, summary);
# waits give up after RACE_WAIT_SECONDS (default 30: the tool slows the
# kernel, and 0.25 s named waits that were only slow). SANTOOL=synccheck or
# memcheck runs that tool instead, into $OUT/SANTOOL.tsv.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
DIR=${1:-harness/verdicts/generated}
OUTDIR=${OUT:-harness/verdicts/out}
BIN=${BINDIR:-harness/verdicts/bin}
SHAPE=${SHAPE:-2048 4096 512}
mkdir -p "$OUTDIR" "$BIN"
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
ls "$DIR"/*.cu | xargs -P 16 -I{} sh -c 'n=$(basename {} .cu); [ -x '"$BIN"'/$n ] || bash harness/gemm/build.sh {} gemm_bf16 -o '"$BIN"'/$n > /dev/null 2>&1 || echo "build failed: $n"'
echo "== built $(ls "$BIN" | grep -vc '\.log$') binaries $(date -u +%H:%M:%S)"
if [ -n "${RACECHECK:-}" ]; then
  SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
  race() {
    n=$1
    # shellcheck disable=SC2086
    s=$(CAKE_CHECK_WAITS_SECONDS=${RACE_WAIT_SECONDS:-30} timeout 90 "$SAN" --tool "${SANTOOL:-racecheck}" "$BIN/$n" --ours-only ${RACE_SHAPE:-2048 4096 128} 2>&1 |
      grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|run.hang|failed' | head -2 | tr '\n' ' ')
    printf '%s\t%s\n' "$n" "${s:-no summary (timeout?)}"
  }
  export -f race
  export BIN SAN RACE_SHAPE RACE_WAIT_SECONDS SANTOOL
  xargs -P "${PAR:-4}" -I{} bash -c 'race {}' < "$RACECHECK" > "$OUTDIR/${SANTOOL:-racecheck}.tsv"
  echo "== ${SANTOOL:-racecheck} on $(wc -l < "$OUTDIR/${SANTOOL:-racecheck}.tsv") $(date -u +%H:%M:%S)"
  cut -f2 "$OUTDIR/${SANTOOL:-racecheck}.tsv" | sed 's/([^)]*)//' | sort | uniq -c
  exit 0
fi
one() {
  n=$1
  log=$(mktemp)
  if [ ! -x "$BIN/$n" ]; then
    printf '%s\terror\tno binary\n' "$n"
    return
  fi
  for seed in ${SEEDS:-0}; do
    # shellcheck disable=SC2086
    CAKE_JITTER_SEED=$seed CAKE_CHECK_WAITS_SECONDS=0.25 timeout 60 "$BIN/$n" --check $SHAPE > "$log" 2>&1
    rc=$?
    if [ $rc -eq 124 ]; then v=timeout; d="no answer in 60 s"
    elif grep -q 'run.hang' "$log"; then v=hang; d=$(grep -m1 'run.hang' "$log")
    elif grep -q 'WRONG' "$log"; then v=wrong; d=$(grep -m1 'WRONG' "$log")
    elif [ $rc -eq 0 ] && grep -q 'correct' "$log"; then v=clean; d=$(grep -m1 'correct' "$log")
    else v=error; d="exit $rc: $(grep -v '^ *launcher check\|^device:' "$log" | tail -2 | tr '\n' ' ')"
    fi
    [ "$seed" = 0 ] || d="seed $seed: $d"
    { echo "==== $n (exit $rc)"; cat "$log"; } >> "$OUTDIR/runs.log"
    [ $v = clean ] || break  # the first seed that fails settles it
  done
  printf '%s\t%s\t%s\n' "$n" "$v" "$d"
  rm -f "$log"
}
export -f one
export BIN SHAPE OUTDIR SEEDS
: > "$OUTDIR/runs.log"
ls "$DIR"/*.cu | xargs -n1 basename | sed 's/\.cu$//' | xargs -P "${PAR:-4}" -I{} bash -c 'one {}' > "$OUTDIR/verdicts.tsv"
echo "== ran $(wc -l < "$OUTDIR/verdicts.tsv") $(date -u +%H:%M:%S)"
cut -f2 "$OUTDIR/verdicts.tsv" | sort | uniq -c
