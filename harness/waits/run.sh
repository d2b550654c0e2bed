#!/usr/bin/env bash
# harness/waits/run.sh - the GPU run of -fcheck-waits, in ONE device call
# (everything built here first by harness/waits/generate.sh; carry
# harness/waits/generated):
#
#   bash harness/waits/run.sh
#
# 1. cost: the GEMM and the persistent GEMM, plain and -fcheck-waits, each
#    checked and timed beside cuBLAS in its own process at the harness's
#    standard shapes (CUPTI, L2 flushed, median of SAMPLES=120); the attention
#    forward pass plain and checked through harness/attention/run.sh (beside
#    cuDNN and FlashAttention-2);
# 2. sanitizers on the checked GEMM alone (memcheck, racecheck, synccheck);
# 3. each planted-bug variant: `--check` at 1024x1024x1024 with a 0.5 s
#    limit (CAKE_CHECK_WAITS_SECONDS), under `timeout` as a backstop; its
#    exit status, time and the launcher's [run.hang] lines; the race variant
#    also at other shapes and under racecheck.
# STEPS="gemm attention sanitizer variants" (the default: all) picks steps, so
# that the run can be split over device calls of 10 minutes.
# Logs in $OUT (default harness/waits/out): cost.log, attention.log,
# sanitizer.log, variants.log, summary.txt.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/waits/out}
mkdir -p "$OUTDIR"
GEN=harness/waits/generated
BIN=$GEN/bin
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
SUM=$OUTDIR/summary.txt
: > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
say "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader)"

STEPS=" ${STEPS:-gemm attention sanitizer variants} "
step() { case $STEPS in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# -- 1. cost
step gemm && for n in gemm_plain gemm_checked persistent_plain persistent_checked; do
  SAMPLES=${SAMPLES:-120} timeout 240 "$BIN/$n" > /tmp/waits_$n.log 2>&1
  say "$n: exit $?"
  grep -E "^[0-9]+x[0-9]+x[0-9]+ |geometric|FAIL|wrong" /tmp/waits_$n.log | sed "s/^/$n: /" | tee -a "$SUM"
  { echo "==== $n"; cat /tmp/waits_$n.log; } >> "$OUTDIR/cost.log"
done
if step attention; then
OUT=/tmp/waits_attention TIMING=1 SANITIZE=0 BUDGET=260 \
  bash harness/attention/run.sh "$GEN/attention/attention_fwd_sm90a.cu" "$GEN/attention/attention_fwd_checked_sm90a.cu" \
  > "$OUTDIR/attention.log" 2>&1
say "attention: exit $?"
for f in /tmp/waits_attention/*.log; do echo "==== $f"; cat "$f"; done >> "$OUTDIR/attention.log"
tail -25 /tmp/waits_attention/summary.txt 2>/dev/null | tee -a "$SUM"
fi

# -- 2. sanitizers on the checked GEMM
step sanitizer && for tool in memcheck racecheck synccheck; do
  timeout 200 "$SAN" --tool "$tool" --error-exitcode 9 "$BIN/gemm_checked" --ours-only 256 512 128 512 768 2048 \
    >> "$OUTDIR/sanitizer.log" 2>&1
  say "gemm_checked $tool: exit $? ; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUTDIR/sanitizer.log" | tail -1)"
done

# -- 3. planted bugs
step variants || { say "== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"; exit 0; }
for cu in "$GEN"/*.cu; do
  n=$(basename "$cu" .cu)
  case $n in gemm_* | persistent_*) continue ;; esac
  echo "==== $n: $(head -1 "$GEN/$n.cake")" >> "$OUTDIR/variants.log"
  grep -E "error|warning: .*-fno-gates" "$GEN/$n.gate.txt" | sed 's/^/gate: /' >> "$OUTDIR/variants.log"
  t0=$(date +%s.%N)
  CAKE_CHECK_WAITS_SECONDS=0.5 timeout 60 "$BIN/$n" --check 1024 1024 1024 >> "$OUTDIR/variants.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  say "$n: exit $rc after $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s; $(grep -c 'run.hang' "$OUTDIR/variants.log") [run.hang] lines so far"
done
n=release_early
echo "==== $n at more shapes, then racecheck" >> "$OUTDIR/variants.log"
CAKE_CHECK_WAITS_SECONDS=0.5 timeout 60 "$BIN/$n" --check 128 256 64 256 512 4096 2048 2048 8192 >> "$OUTDIR/variants.log" 2>&1
say "$n (3 shapes): exit $?"
timeout 200 "$SAN" --tool racecheck --error-exitcode 9 "$BIN/$n" --ours-only 256 512 1024 >> "$OUTDIR/variants.log" 2>&1
say "$n racecheck: exit $? ; $(grep -E 'RACECHECK SUMMARY' "$OUTDIR/variants.log" | tail -1)"
say "== done $(date -u +%Y-%m-%dT%H:%M:%SZ)"
