#!/usr/bin/env bash
# harness/waits/generate.sh - everything harness/waits/run.sh runs on the GPU,
# generated and built here (cakec and nvcc need no GPU; the device machine
# runs the binaries: carry harness/waits/generated).
#
# 1. Cost of -fcheck-waits: the GEMM (examples/gemm_bf16_sm90a.cake), the
#    persistent GEMM and the attention forward pass, each lowered plainly and
#    with -fcheck-waits (harness/gemm binaries; attention as .cu files that
#    harness/attention/run.sh builds on the device).
# 2. Planted bugs: variants of examples/gemm_bf16_sm90a.cake, each a sed edit
#    below. The safety gate must reject each (its diagnostics are kept in
#    generated/NAME.gate.txt); -fno-gates=safety -fcheck-waits lowers it, and
#    run.sh runs it: a hang must be named by the launcher ([run.hang]).
# CAKEC=path overrides build-test/bin/cakec.
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
GEN=harness/waits/generated
rm -rf "$GEN" && mkdir -p "$GEN/bin"
EX=examples/gemm_bf16_sm90a.cake

# -- 1. cost: plain and checked
"$CAKEC" -I . $EX -o "$GEN/gemm_plain.cu"
"$CAKEC" -I . $EX -fcheck-waits -o "$GEN/gemm_checked.cu"
"$CAKEC" -I . examples/gemm_bf16_persistent_sm90a.cake -o "$GEN/persistent_plain.cu"
"$CAKEC" -I . examples/gemm_bf16_persistent_sm90a.cake -fcheck-waits -o "$GEN/persistent_checked.cu"
mkdir -p "$GEN/attention"
"$CAKEC" -I . examples/attention_fwd_sm90a.cake --kernel-name=attention_fwd -o "$GEN/attention/attention_fwd_sm90a.cu"
"$CAKEC" -I . examples/attention_fwd_sm90a.cake --kernel-name=attention_fwd_checked -fcheck-waits \
  -o "$GEN/attention/attention_fwd_checked_sm90a.cu"

# -- 2. planted bugs: NAME|text of the example|its replacement ("\n": a line
# break)|what it plants
VARIANTS=(
  "empty_count3|cons=[load], init_count=2,|cons=[load], init_count=3,|'empty' expects 3 arrivals a phase, two warpgroups arrive"
  "full_count2|cons=[math], init_count=1,|cons=[math], init_count=2,|'full' expects 2 arrivals a phase, the producer's expect-tx gives 1"
  "release_once|lm.arrive(empty, stage=k, per=\"warpgroup\")|if k == 0:\n                lm.arrive(empty, stage=k, per=\"warpgroup\")|the consumer releases only stage 0"
  "wait_ahead|lm.wait(full, stage=k)|lm.wait(full, stage=k + 1)|the consumer waits one stage ahead: the last is never filled"
  "load_skips_first|    with load:\n        for k in lm.range(0,|    with load:\n        for k in lm.range(1,|the producer skips the first stage"
  "release_early|lm.mma_commit()\n            lm.mma_wait(pending=0)\n            lm.arrive(empty, stage=k, per=\"warpgroup\")|lm.arrive(empty, stage=k, per=\"warpgroup\")\n            lm.mma_commit()\n            lm.mma_wait(pending=0)|the consumer releases a stage before its wgmma has read it (a race, no hang)"
)
for v in "${VARIANTS[@]}"; do
  IFS='|' read -r name old new what <<<"$v"
  src="$GEN/$name.cake"
  python3 - "$EX" "$src" "$old" "$new" "$name: $what" <<'PY'
import sys
ex, out, old, new, what = sys.argv[1:]
old, new = old.replace("\\n", "\n"), new.replace("\\n", "\n")
text = open(ex).read()
if text.count(old) != 1:
    sys.exit(f"variant {what.split(':')[0]}: '{old}' is not in {ex} exactly once")
open(out, "w").write(f"# harness/waits variant {what}\n" + text.replace(old, new))
PY
  if "$CAKEC" -I . "$src" -o /dev/null > "$GEN/$name.gate.txt" 2>&1; then
    echo "variant $name: the gates accept it (a planted bug must be rejected)" >&2
    exit 1
  fi
  "$CAKEC" -I . "$src" -fno-gates=safety -fcheck-waits -o "$GEN/$name.cu" 2> "$GEN/$name.lowered.txt"
done

# -- harness binaries (the GEMM harness around each file)
pids=()
for cu in "$GEN"/*.cu; do
  n=$(basename "$cu" .cu)
  bash harness/gemm/build.sh "$cu" gemm_bf16 -o "$GEN/bin/$n" &
  pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
wait
ls "$GEN" "$GEN/bin"
