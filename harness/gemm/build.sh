#!/usr/bin/env bash
# harness/gemm/build.sh - builds the GEMM harness around one generated file,
# here or on the device (nvcc needs no GPU):
#
#   bash harness/gemm/build.sh GENERATED.cu KERNEL_NAME [HARNESS_FLAGS...] [-o BIN]
#
# BIN defaults to harness/gemm/generated/bin/<GENERATED without .cu>; the
# ptxas report goes to BIN.log. run.sh PREBUILT=harness/gemm/generated/bin
# runs what this builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 GENERATED.cu KERNEL_NAME [HARNESS_FLAGS...] [-o BIN]" >&2; exit 2; }
GEN=$1 NAME=$2
shift 2
BIN=harness/gemm/generated/bin/$(basename "$GEN" .cu)
FLAGS=()
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then BIN=$2; shift 2; else FLAGS+=("$1"); shift; fi
done
mkdir -p "$(dirname "$BIN")"
case $GEN in /*) ;; *) GEN=$PWD/$GEN ;; esac
"${NVCC:-/usr/local/cuda/bin/nvcc}" -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xptxas -v \
  -DKERNEL_CU="\"$GEN\"" -DKERNEL_NAME="$NAME" "${FLAGS[@]}" harness/gemm/gemm_harness.cu -lcublas -lcupti \
  -o "$BIN" > "$BIN.log" 2>&1 || { cat "$BIN.log" >&2; exit 1; }
