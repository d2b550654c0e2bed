#!/usr/bin/env bash
# harness/gemm/run.sh - everything the GPU run of the generated GEMM needs, in
# one call on the device machine (no cakec there: the .cu is generated here
# first, by `cakec examples/gemm_bf16_sm90a.cake -o harness/gemm/generated/gemm_bf16_sm90a.cu`).
#
#   bash harness/gemm/run.sh [GENERATED.cu ...]
#
# With several files (variants of the schedule), each is built, checked,
# timed and sanitized in turn. NAME=<kernel> names the generated kernel
# (default gemm_bf16; gemm_bf16_sm80 for examples/gemm_bf16_sm80.cake, whose
# sm_80 CUDA is compiled for sm_90a here: mma.sync, ldmatrix and cp.async are
# forward compatible).
#
# 1. the GPU and its clocks; 2. nvcc builds the harness around the generated
# file (ptxas report kept); 3. correctness + CUPTI timing beside cuBLAS at the
# standard shapes; 4. compute-sanitizer memcheck, racecheck and synccheck in a
# process of their own without cuBLAS (--ours-only: cuBLAS's kernels report
# racecheck hazards of their own, and filtering them with --kernel-name ended
# in "Internal Sanitizer Error" on 2026-12-01), at a small shape and at one
# with many ring laps (K = 2048), or SAN_SHAPES="M N K ...". HARNESS_FLAGS=-DB_KN
# builds it for a schedule taking B as K x N; PREBUILT=dir runs dir/<name>, built
# here with the same nvcc line (no GPU needed); HARNESS_FLAGS=-DFAMILY for a
# family's dispatcher (NAME= the family; each shape runs the route it picks). SHAPES="MxNxK ..."
# (or SHAPES=@file, e.g. @harness/gemm/shapes/large5.txt) replaces the standard
# shapes. REPEATS=n relaunches n times at each shape and compares C bit for
# bit; with NONDETERMINISTIC=1 (a reduction in arrival order) each repeat
# must be correct instead. SANITIZE=0 skips the sanitizers, SANITIZE="a b" runs them on the
# files named a and b only. Logs go to $OUT (or harness/gemm/out) and the
# table to stdout.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${OUT:-harness/gemm/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
[ $# -gt 0 ] || set -- harness/gemm/generated/gemm_bf16_sm90a.cu
NAME=${NAME:-gemm_bf16}

echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
"$NVCC" --version | tail -1
status=0
for GEN in "$@"; do
  name=$(basename "$GEN" .cu)
  BIN=/tmp/gemm_harness_$name
  if [ -n "${PREBUILT:-}" ]; then  # built elsewhere (nvcc needs no GPU): PREBUILT=dir holds dir/$name
    echo "== $name: prebuilt $PREBUILT/$name"
    BIN=$PREBUILT/$name
    export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
  else
    echo "== $name: build"
    # shellcheck disable=SC2086  # the flags are separate arguments
    NVCC=$NVCC bash harness/gemm/build.sh "$GEN" "$NAME" ${HARNESS_FLAGS:-} -o "$BIN"
    cp "$BIN.log" "$OUTDIR/build-$name.log"
    grep -A2 "entry function" "$OUTDIR/build-$name.log" | grep -v "^--"  # every kernel (a family has several)
    grep -iE "error|warning" "$OUTDIR/build-$name.log"
  fi
  [ -x "$BIN" ] || { echo "build failed"; status=1; continue; }
  echo "== $name: bench"
  timeout 300 "$BIN" > "$OUTDIR/bench-$name.log" 2>&1 || status=1  # a hang ends the run, not the lease
  cat "$OUTDIR/bench-$name.log"
  SAN_SHAPES=${SAN_SHAPES:-256 512 128 512 768 2048}
  # SANITIZE=1 (the default): every file; 0: none (timing experiments);
  # otherwise the names of the files to sanitize ("s4p0 s4p1").
  case " ${SANITIZE:-1} " in " 1 " | *" $name "*) ;; *) continue ;; esac
  echo "== $name: compute-sanitizer, our kernel alone (M N K: $SAN_SHAPES)"
  for tool in memcheck racecheck synccheck; do
    # shellcheck disable=SC2086  # the shapes are separate arguments
    timeout 300 "$SAN" --tool "$tool" --error-exitcode 9 "$BIN" --ours-only $SAN_SHAPES > "$OUTDIR/san-$tool-$name.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    echo "$tool: exit $rc ; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUTDIR/san-$tool-$name.log" | head -2 | tr '\n' ' ')"
  done
done
exit $status
