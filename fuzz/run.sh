#!/usr/bin/env bash
# Runs one libFuzzer target over a corpus seeded from examples/ and
# testsuite/. Usage: fuzz/run.sh FuzzParse|FuzzPipeline SECONDS [BUILD_DIR]
# Crashes, leaks, timeouts (> 2 s per input) and out-of-memory inputs land in
# BUILD_DIR/fuzz-artifacts/; each one found becomes a regression test in
# testsuite/robustness/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1
seconds=$2
build=${3:-build-fuzz}
corpus=$build/fuzz-corpus/$target
artifacts=$build/fuzz-artifacts/$target
mkdir -p "$corpus" "$artifacts"
# Seeds: every schedule and test input we have.
find examples testsuite -name '*.cake' -exec cp {} "$corpus"/ \; 2>/dev/null || true
maxlen=65536
[ "$target" = FuzzPipeline ] && maxlen=16384
log=$build/fuzz-$target.log
"$build/bin/$target" "$corpus" -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 \
  -max_len="$maxlen" -artifact_prefix="$artifacts/" -print_final_stats=1 > "$log" 2>&1 || true
# The summary: first and last coverage lines, final statistics, any finding.
# (libFuzzer separates the run count from the event with a tab.)
{ grep -E "^#[0-9]+[[:space:]]+INITED" "$log" | head -1
  grep -E "^#[0-9]+[[:space:]]+(pulse|NEW|REDUCE|DONE)" "$log" | tail -1
  grep -E "^(stat::|Done |==[0-9]+==|SUMMARY)|(crash|leak|timeout|oom)-" "$log"; } || true
# A finding leaves a file behind; fail then.
if [ -n "$(ls -A "$artifacts")" ]; then
  echo "fuzz/run.sh: $target found problems:"; ls "$artifacts"; exit 1
fi
