#!/usr/bin/env bash
# bench/costmodel/run.sh - THERE, on the H200, in one device call (about 2-3
# minutes; nothing is compiled there): times every (kernel, shape) pair of
# sweep.txt beside cuBLAS with the binaries gen.sh built here, then runs the
# calibration microbenchmarks (calibrate.py, torch).
#
#   here:   bash bench/costmodel/gen.sh
#   device: bash bench/costmodel/run.sh        (carry ["bench/costmodel/prebuilt"])
#   here:   python3 bench/costmodel/parse.py <files_at>/gemm_logs.tar.gz -o bench/costmodel/measured.csv
#
# Each binary runs as harness/gemm/run.sh runs a PREBUILT one (the same
# environment; its nvidia-smi and sanitizer steps left out): SHAPES= its
# line's shapes, correctness checked at every shape (a wrong result is not
# timed), 120 CUPTI samples beside cuBLAS, L2 flushed before each, under a
# timeout of BIN_TIMEOUT_S (default 90; a hung kernel ends that binary only).
# ONLY="name ..." runs those lines of sweep.txt alone; SKIP_CALIBRATE=1
# leaves calibrate.py out; a binary is skipped once DEADLINE_S (default 480)
# seconds have gone, and calibrate.py gets what is left of 560 s (at most 240).
#
# What comes back ($OUT, or bench/costmodel/out; 4 files, the device returns
# at most 8): run.txt (this output), gemm_logs.tar.gz (logs/bench-<name>.log:
# each binary's output with its table; rewritten after every binary, so a
# killed run keeps what it measured), measured.csv (parse.py over those logs,
# run there) and calibration.json.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
D=bench/costmodel
P=${PREBUILT:-$D/prebuilt}
RES=${OUT:-$D/out}
mkdir -p "$RES"
WORK=$(mktemp -d /tmp/costmodel.XXXXXX)
LOGS=$WORK/logs
mkdir -p "$LOGS"

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

main() {
  local status=0 start=$SECONDS
  echo "== costmodel run $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
  [ -d "$P" ] || { echo "no $P: run bench/costmodel/gen.sh here and carry $P"; return 2; }
  export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
  cat "$P/BUILD_INFO.txt" 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
  while IFS='|' read -r name _file _defs kname _hflags shapes <&3; do
    name=$(trim "$name")
    case $name in '' | '#'*) continue ;; esac
    if [ -n "${ONLY:-}" ]; then case " $ONLY " in *" $name "*) ;; *) continue ;; esac; fi
    shapes=$(trim "$shapes") kname=$(trim "$kname")
    if [ $((SECONDS - start)) -ge "${DEADLINE_S:-480}" ]; then
      echo "== $name: SKIPPED (${DEADLINE_S:-480} s gone)"
      status=1
      continue
    fi
    if [ ! -x "$P/$name" ]; then
      echo "== $name: MISSING $P/$name"
      status=1
      continue
    fi
    local t0=$SECONDS rc
    echo "== $name: $P/$name, SHAPES=$shapes" > "$LOGS/bench-$name.log"
    SHAPES="$shapes" timeout -k 5 "${BIN_TIMEOUT_S:-90}" "$P/$name" >> "$LOGS/bench-$name.log" 2>&1 < /dev/null
    rc=$?
    [ $rc -eq 0 ] || status=1
    printf '== %-20s rc %d, %3d s, %2d shapes: %s | %s\n' "$name" "$rc" $((SECONDS - t0)) "$(wc -w <<< "$shapes")" \
      "$(grep -hE '^geometric mean' "$LOGS/bench-$name.log" | head -1)" \
      "$( (grep -hE '^(ALL CORRECT|FAILURES)$|MISMATCH|launch failed|UNEXPECTED|CUPTI:|rror' "$LOGS/bench-$name.log" ||
          tail -1 "$LOGS/bench-$name.log") | head -3 | tr '\n' ' ')"
    tar -czf "$RES/gemm_logs.tar.gz" -C "$WORK" logs
  done 3< "${SWEEP:-$D/sweep.txt}"
  echo "== GEMMs: $((SECONDS - start)) s"
  python3 "$D/parse.py" "$RES/gemm_logs.tar.gz" -o "$RES/measured.csv" --sweep "${SWEEP:-$D/sweep.txt}" || status=1
  if [ "${SKIP_CALIBRATE:-0}" != 1 ]; then
    local t0=$SECONDS
    local left=$((560 - (SECONDS - start)))
    [ $left -le 240 ] || left=240
    OUT=$RES PYTHONUNBUFFERED=1 timeout -k 5 "$left" python3 "$D/calibrate.py" || status=1
    echo "== calibrate: $((SECONDS - t0)) s"
  fi
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  echo "== total $((SECONDS - start)) s, status $status"
  return $status
}

main 2>&1 | tee "$RES/run.txt"
st=${PIPESTATUS[0]}
rm -rf "$WORK"
exit "$st"
