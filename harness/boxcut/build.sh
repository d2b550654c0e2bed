#!/usr/bin/env bash
# harness/boxcut/build.sh - generates and builds the box-cut checks (no GPU):
#   CAKEC=build-test/bin/cakec bash harness/boxcut/build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
B=harness/boxcut/generated
mkdir -p $B
S=testsuite/codegen/Inputs/box_cut_copy.cake
"$CAKEC" -DROLE_SYNC=0 $S -o $B/copy_prologue.cu
"$CAKEC" -DROLE_SYNC=1 $S -o $B/copy_role.cu
grep -v "cake_st_shared_v4(cake_v_view" $B/copy_prologue.cu > $B/copy_nozero.cu
! grep -q "cake_st_shared_v4(cake_v_view" $B/copy_nozero.cu
for n in prologue role nozero; do
  "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 -DKERNEL_CU="\"$PWD/$B/copy_$n.cu\"" \
    harness/boxcut/boxcut_check.cu -o $B/check_$n &
done
wait
ls $B/check_*
