#!/usr/bin/env bash
# bench/costmodel/stages.sh - THERE, on the H200, in one device call: the
# ring-depth pairs of stages_sweep.txt timed beside cuBLAS (run.sh with
# SWEEP=stages_sweep.txt, no calibration microbenchmarks), then Nsight
# Compute's limiter on the pairs of ncu_2026-12-05.txt (issue 39). The
# model's times and classes for all of them are frozen in
# predictions_stages_2026-12-05.csv, committed before the run.
#
#   here:   SWEEP=bench/costmodel/stages_sweep.txt bash bench/costmodel/gen.sh
#   device: bash bench/costmodel/stages.sh          (carry ["bench/costmodel/prebuilt"])
#   here:   accuracy.py --csv <files_at>/run/measured.csv --frozen bench/costmodel/predictions_stages_2026-12-05.csv
#           limiter.py <files_at>/ncu.tar.gz --sweep bench/costmodel/stages_sweep.txt
#
# ncu as after.sh runs it: each binary with `--check M N K` (correctness
# only) under `ncu --clock-control none --section SpeedOfLight` plus the
# tensor pipe's counters; the limiter is read by after.sh's rule (written
# before its run, 2026-12-05). DEADLINE_S (default 560) bounds the whole.
# SWEEP= and NCU_LIST= run other lists the same way (run4: run4_sweep.txt,
# ncu_run4_2026-12-05.txt).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
D=bench/costmodel
RES=${OUT:-$D/out}
mkdir -p "$RES/run"
W=$(mktemp -d /tmp/stages.XXXXXX)
mkdir -p "$W/logs"
# shellcheck source=bench/costmodel/ncu_profile.sh
. bench/costmodel/ncu_profile.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
start=$SECONDS
pack() { tar -czf "$RES/ncu.tar.gz" -C "$W" logs; }
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

main() {
  echo "== stages.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname) $(git rev-parse --short HEAD 2>/dev/null)"
  local deadline=${DEADLINE_S:-560}
  # 1. the timed pairs: at most 60% of the deadline
  if [ -z "${SKIP_TIMED:-}" ]; then
    OUT=$RES/run SWEEP=${SWEEP:-$D/stages_sweep.txt} SKIP_CALIBRATE=1 DEADLINE_S=$((deadline * 6 / 10)) bash $D/run.sh
  fi
  echo "== timed pairs done at $((SECONDS - start)) s"
  # 2. ncu (name | binary | M N K), each capped at 60 s and by the deadline
  local extra
  extra=$(ncu_metrics "$W/logs")
  while IFS='|' read -r name bin mnk <&3; do
    name=$(trim "$name")
    case $name in '' | '#'*) continue ;; esac
    bin=$(trim "$bin")
    read -r M N K <<< "$mnk"
    local cap=$((deadline - (SECONDS - start) - 10))
    [ "$cap" -le 60 ] || cap=60
    ncu_profile "$name" "$bin" "$M" "$N" "$K" "$cap" "$extra" "$W/logs"
    pack
  done 3< "${NCU_LIST:-$D/ncu_2026-12-05.txt}"
  echo "== ncu done at $((SECONDS - start)) s"
}

main 2>&1 | tee "$W/logs/after.txt"
pack
