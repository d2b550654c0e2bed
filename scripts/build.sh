#!/usr/bin/env bash
# Sets everything up and runs the main job: installs the packages, configures
# and builds cakec into build/, then compiles an example kernel.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build

mkdir -p build/out
example=examples/gemm_bf16_sm90a.cake
out=build/out/gemm_bf16_sm90a.cu
build/bin/cakec --target=sm_90a "$example" -o "$out"
echo "cakec: compiled $example for sm_90a; output written to $out"
# The generated CUDA assembles for its target (no GPU needed) when the CUDA
# toolkit is there.
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
if [ -x "$nvcc" ]; then
  "$nvcc" -gencode=arch=compute_90a,code=sm_90a -std=c++17 -O3 -c "$out" -o build/out/gemm_bf16_sm90a.o
  echo "nvcc: assembled $out for sm_90a into build/out/gemm_bf16_sm90a.o"
else
  echo "nvcc: not found at $nvcc; skipped assembling $out"
fi
