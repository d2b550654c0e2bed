#!/usr/bin/env bash
# harness/attention/run.sh - everything the GPU run of the generated attention
# kernels needs, in ONE call on the device machine (10 minutes at most there).
#
# README. cakec is not on the device machine: generate the .cu files here first,
#   build/bin/cakec SCHEDULE.cake --target=sm_90a -o harness/attention/generated/attention_fwd_sm90a.cu
#   build/bin/cakec SCHEDULE_CAUSAL.cake --target=sm_90a -o harness/attention/generated/attention_fwd_causal_sm90a.cu
# and each one's interface beside it (attn_bench.py calls the library through
# the Python package, cakec.bind, which reads it), with the same options:
#   build/bin/cakec SCHEDULE.cake --target=sm_90a --emit=interface -o harness/attention/generated/attention_fwd_sm90a.json
# then make one device call (timeout_s 600) with the command
#   bash harness/attention/run.sh harness/attention/generated/attention_fwd_sm90a.cu harness/attention/generated/attention_fwd_causal_sm90a.cu
# With no arguments it takes harness/attention/generated/*.cu. Untracked files
# travel to the device unless git ignores them: if harness/attention/generated/
# is ignored (as harness/gemm/generated/ is), name it in the call's carry.
#
# Per file: a name containing 'causal' means the causal variant; the launcher
# is the name less '_sm90a.cu' plus '_launch' (attention_fwd_causal_sm90a.cu ->
# attention_fwd_causal_launch). Steps:
#   1. the GPU, its clocks and the tools;
#   2. nvcc builds each file into a shared library (all at once; the ptxas
#      register/spill report is kept, -lcuda added only if the library needs it);
#   3. attn_bench.py, one process per file: correctness against a float64
#      reference, then CUPTI timing beside cuDNN and FlashAttention-2;
#   4. compute-sanitizer memcheck, racecheck and synccheck on
#      `attn_bench.py --check-only` (small shapes), filtered to our kernels, one
#      process per tool for all files (SAN_SPLIT=1: one per file and tool).
# Every step runs under `timeout`, capped so that the whole run ends within
# BUDGET seconds (default 570): a hang ends its step, not the lease, and a step
# with no time left is reported as skipped.
#
# Environment: OUT (log folder, default harness/attention/out), SAMPLES (timing
# samples, default 120), SANITIZE=0 (skip step 4), TIMING=0 (correctness only),
# SAN_SPLIT=1, BUDGET, NVCC, SANITIZER, PYTHON.
# Output: the logs below in $OUT (few files: the device returns at most 8),
#   NAME.log      build command, ptxas report, attn_bench.py output
#   NAME.json     attn_bench.py's results, every timing sample included
#   sanitizer.log the three tools' output
#   summary.txt   the summary printed last
# Exit status: 0 when everything built, passed, timed and sanitized clean.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/attention/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_DIR=$(dirname "$(dirname "$NVCC")")
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo "$CUDA_DIR/bin/compute-sanitizer")}
PY=${PYTHON:-python3}
BENCH=harness/attention/attn_bench.py
LIBDIR=/tmp/cake_attn
mkdir -p "$LIBDIR"
export PYTHONUNBUFFERED=1
[ $# -gt 0 ] || set -- harness/attention/generated/*.cu

DEADLINE=$((SECONDS + ${BUDGET:-570}))
# limited CAP LOG CMD...: CMD with its output appended to LOG, under `timeout`
# (which kills CMD's whole process group) of CAP seconds or what is left of the
# budget less 20 s for the summary, whichever is less. Returns CMD's status,
# 124 on a timeout, 125 when no time was left.
limited() {
  local cap=$1 log=$2 left
  shift 2
  left=$((DEADLINE - SECONDS - 20))
  [ "$left" -lt "$cap" ] && cap=$left
  if [ "$cap" -lt 10 ]; then
    echo "(skipped: the run's time budget is spent) $*" >> "$log"
    return 125
  fi
  echo "\$ $* (timeout ${cap}s)" >> "$log"
  timeout -k 10 "$cap" "$@" >> "$log" 2>&1
}
verdict() {  # verdict STATUS: words for an exit status
  case $1 in 0) echo "ok";; 124|137) echo "TIMED OUT";; 125) echo "SKIPPED (no time left)";; *) echo "FAILED (exit $1)";; esac
}

status=0
SUMMARY=()
note() { SUMMARY+=("$*"); }

echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
"$NVCC" --version | tail -1
"$SAN" --version 2>/dev/null | tail -1

# ---- 2. build ------------------------------------------------------------------
NAMES=() SPECS=() KERNELS=()
build_one() {  # build_one GEN NAME LIB LOG
  local gen=$1 name=$2 lib=$3 log=$4
  # shellcheck disable=SC2054  # the comma belongs to nvcc's -gencode value
  local cmd=("$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -lineinfo -Xptxas -v
             -Xcompiler -fPIC -shared -o "$lib" "$gen")
  rm -f "$lib"
  limited 180 "$log" "${cmd[@]}" || return
  cp "${gen%.cu}.json" "${lib%.so}.json" >> "$log" 2>&1 || { echo "no interface ${gen%.cu}.json: generate it" >> "$log"; return 1; }
  # The launcher reaches cuTensorMapEncodeTiled through the runtime's driver
  # entry point, so no -lcuda; link it only if a driver symbol is left undefined.
  if command -v nm > /dev/null && nm -D --undefined-only "$lib" | awk '{print $NF}' | grep -qE '^cu[A-Z]'; then
    echo "undefined driver symbols: $(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep -E '^cu[A-Z]' | tr '\n' ' '); relinking with -lcuda" >> "$log"
    limited 180 "$log" "${cmd[@]}" -L"$CUDA_DIR/lib64/stubs" -lcuda || return
  fi
  [ -f "$lib" ]
}
pids=()
for GEN in "$@"; do
  name=$(basename "$GEN" .cu)
  : > "$OUTDIR/$name.log"
  if [ ! -f "$GEN" ]; then
    echo "$GEN: no such file" | tee -a "$OUTDIR/$name.log"
    note "$name: no such file $GEN"
    status=1
    continue
  fi
  echo "== $name: build of $GEN (sha256 $(sha256sum < "$GEN" | cut -c1-16))" >> "$OUTDIR/$name.log"
  NAMES+=("$name")
  build_one "$GEN" "$name" "$LIBDIR/$name.so" "$OUTDIR/$name.log" &
  pids+=($!)
done
BUILT=()
for i in "${!NAMES[@]}"; do
  name=${NAMES[$i]}
  log=$OUTDIR/$name.log
  wait "${pids[$i]}"
  rc=$?
  echo "== $name: build $(verdict $rc)"
  base=${name%_sm90a}
  mode=noncausal
  [[ $name == *causal* ]] && mode=causal
  # The kernels' names, from ptxas's report: the sanitizer's filter uses them.
  entries=$(grep -o "Compiling entry function '[^']*'" "$log" | sed "s/.*function '//; s/'$//" | sort -u)
  ours=$(grep -F "$base" <<< "$entries")
  [ -n "$ours" ] || ours=$entries
  for e in $ours; do
    regs=$(grep -A4 -F "Compiling entry function '$e'" "$log" | grep -E "stack frame|registers" | head -2 | sed 's/^ *//; s/ptxas info *: //' | tr '\n' ' ')
    echo "   $e: $regs"
    note "$name: kernel $e: $regs"
  done
  grep -iE "error|warning" "$log" | grep -v "^\\$" | head -20
  if [ $rc -ne 0 ]; then
    note "$name: build $(verdict $rc)"
    status=1
    continue
  fi
  [ -n "$ours" ] || echo "   warning: no entry function named in the ptxas report; the sanitizer filter falls back to kns=$base"
  BUILT+=("$name")
  SPECS+=("$LIBDIR/$name.so:${base}_launch:$mode")
  KERNELS+=("${ours:-$base}")
done

# ---- 3. correctness and timing ----------------------------------------------------
bench_args=(--samples "${SAMPLES:-120}")
[ "${TIMING:-1}" = 1 ] || bench_args+=(--no-timing)
for i in "${!BUILT[@]}"; do
  name=${BUILT[$i]}
  log=$OUTDIR/$name.log
  echo "== $name: correctness and timing"
  echo "== $name: correctness and timing" >> "$log"
  start=$(wc -l < "$log")
  limited 300 "$log" "$PY" "$BENCH" "${bench_args[@]}" --json "$OUTDIR/$name.json" "${SPECS[$i]}"
  rc=$?
  new=$(tail -n +"$((start + 1))" "$log")
  echo "$new"
  [ $rc -eq 0 ] || status=1
  note "$name: attn_bench.py $(verdict $rc)"
  while IFS= read -r line; do note "  $line"; done < <(
    grep -E " FAIL$|UNEXPECTED|CUDA FAULT|Traceback|Error|not timed|: (ALL CORRECT|FAILURES)$|warning:" <<< "$new" | head -20
    awk '/CUPTI samples, L2 flushed/{p=1} p{print} /^\(ratio =/{p=0}' <<< "$new"
    grep -E "^\(.* not available:" <<< "$new" | sort -u)
done

# ---- 4. compute-sanitizer ------------------------------------------------------------
san_run() {  # san_run TOOL LABEL SPEC... (KERNEL_FILTERS set by the caller)
  local tool=$1 label=$2 rc extra=()
  shift 2
  case $tool in
    memcheck) extra=(--padding 8192) ;;  # guard bytes after each allocation
  esac
  echo "== $label: $tool" >> "$OUTDIR/sanitizer.log"
  start=$(wc -l < "$OUTDIR/sanitizer.log")
  # PyTorch's caching allocator would hide out-of-bounds accesses inside its pools.
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 limited 240 "$OUTDIR/sanitizer.log" \
    "$SAN" --tool "$tool" --error-exitcode 9 --launch-timeout 0 "${KERNEL_FILTERS[@]}" "${extra[@]}" \
    "$PY" "$BENCH" --check-only "$@"
  rc=$?
  [ $rc -eq 0 ] || status=1
  local new summ checked=""
  new=$(tail -n +"$((start + 1))" "$OUTDIR/sanitizer.log")
  summ=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|CUDA FAULT|^FAILURES|Traceback" <<< "$new" | head -3 | tr '\n' ' ')
  if [ "$tool" = memcheck ]; then
    # With the tool names each launch it saw: a line of
    # its (=========) naming our kernel shows that the filter matched it.
    checked="; sanitizer lines naming our kernels: $(grep '^=========' <<< "$new" | grep -cF -f <(printf '%s\n' "${KERNEL_NAMES[@]}"))"
  fi
  echo "$label $tool: $(verdict $rc)${summ:+; $summ}$checked"
  note "$label $tool: $(verdict $rc)${summ:+; $summ}$checked"
}
# KERNEL_FILTERS: one --kernel-name kns=NAME per kernel named in $1.
set_filters() {
  read -ra KERNEL_NAMES <<< "${1//$'\n'/ }"
  KERNEL_FILTERS=()
  for k in "${KERNEL_NAMES[@]}"; do KERNEL_FILTERS+=(--kernel-name "kns=$k"); done
}
if [ "${SANITIZE:-1}" = 1 ] && [ ${#BUILT[@]} -gt 0 ]; then
  : > "$OUTDIR/sanitizer.log"
  echo "== compute-sanitizer (--check-only: 1x2x256 and 2x1x512), filtered to: ${KERNELS[*]}"
  for tool in memcheck racecheck synccheck; do
    if [ "${SAN_SPLIT:-0}" = 1 ]; then
      for i in "${!BUILT[@]}"; do
        set_filters "${KERNELS[$i]}"
        san_run "$tool" "${BUILT[$i]}" "${SPECS[$i]}"
      done
    else
      set_filters "${KERNELS[*]}"
      san_run "$tool" "all" "${SPECS[@]}"
    fi
  done
fi

echo
echo "== summary ($SECONDS s)"
printf '%s\n' "${SUMMARY[@]}" | tee "$OUTDIR/summary.txt"
echo "exit $status" | tee -a "$OUTDIR/summary.txt"
exit $status
