#!/usr/bin/env bash
# Builds Inputs/external (copied to $1/src) against the cakec installed in
# $1/prefix with CMake generator $2, then checks the rebuild behaviour:
# nothing to do when nothing changed, and regeneration when a module the
# schedule imports (the project's own, or the installed standard library's)
# changes, through cakec's dependency file.
set -euo pipefail
T=$1
GEN=$2
B="$T/build-${GEN// /_}"
NVCC=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
cmake -S "$T/src" -B "$B" -G "$GEN" -DCMAKE_PREFIX_PATH="$T/prefix" -DCMAKE_CUDA_COMPILER="$NVCC" > "$B.configure.log" 2>&1 ||
  { cat "$B.configure.log"; exit 1; }
cmake --build "$B" -v > "$B.build1.log" 2>&1 || { cat "$B.build1.log"; exit 1; }
grep -q "bin/cakec --target=sm_90a" "$B.build1.log" || { echo "cakec did not run"; exit 1; }
grep -q "compute_90a,code=sm_90a" "$B.build1.log" || { echo "nvcc did not compile for sm_90a"; exit 1; }
test -f "$B/cakec/gemm.cu"
test -f "$B/cakec/gemm.cu.d"
grep -q "modules/params.cake" "$B/cakec/gemm.cu.d" || { echo "depfile lacks the imported module"; exit 1; }
test -f "$B/libgemm_kernels.a"
test -f "$B/cakec/gemm.h"
"$B/use_gemm" | grep -q "gemm_bf16_launch: 1 (tensor A is null)" || { echo "the program using the header failed"; exit 1; }

rebuild() {  # $1: log name; prints whether cakec ran
  cmake --build "$B" > "$B.$1.log" 2>&1 || { cat "$B.$1.log"; exit 1; }
  if grep -q "cakec: lowering" "$B.$1.log"; then echo ran; else echo idle; fi
}
[ "$(rebuild build2)" = idle ] || { echo "an unchanged project regenerated"; exit 1; }
sleep 1
touch "$T/src/modules/params.cake"
[ "$(rebuild build3)" = ran ] || { echo "editing the imported module did not regenerate"; exit 1; }
sleep 1
touch "$T/prefix/share/cakec/stdlib/hopper.cake"
[ "$(rebuild build4)" = ran ] || { echo "editing the standard library module did not regenerate"; exit 1; }
echo "external project with $GEN: ok"
