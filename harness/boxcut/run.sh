#!/usr/bin/env bash
# harness/boxcut/run.sh - the box-cut check on the GPU, in one device call.
# Built here (nvcc needs no GPU) by build.sh into harness/boxcut/generated/:
#   check_prologue  the storing role runs on one thread: the prologue zeroes
#   check_role      the storing role zeroes the rows itself
#   check_nozero    the same code with the zeroing deleted: it must FAIL,
#                   which shows the check sees rows that were not zeroed
# plus compute-sanitizer (memcheck, racecheck, synccheck) on the first two.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=harness/boxcut/generated
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
st=0
for n in check_prologue check_role; do
  echo "== $n"
  timeout 120 $B/$n || st=1
  for tool in memcheck racecheck synccheck; do
    timeout 300 "$SAN" --tool $tool --error-exitcode 9 $B/$n > /tmp/san-$tool-$n.log 2>&1
    rc=$?
    [ $rc -eq 0 ] || st=1
    echo "$tool: exit $rc ; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san-$tool-$n.log | head -1)"
  done
done
echo "== check_nozero (must fail)"
if timeout 120 $B/check_nozero; then echo "check_nozero PASSED: the check cannot see missing zeros"; st=1; else echo "check_nozero failed, as it must"; fi
exit $st
