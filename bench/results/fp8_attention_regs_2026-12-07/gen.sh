#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the fp8 attention forward of
# testsuite/codegen/Inputs/attention_fwd_fp8.cake with P . V taking P from
# registers (the default, P_REGS) and through shared memory
# (-DP_REGS=False), and the fp8 view-store check kernel with its wgmma's A
# from registers (-DA_REGS=True) and fp8_a_regs_two_blocks.cake (two m64
# blocks of A per warpgroup), into harness/fp8/generated/att.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/fp8/generated/att
mkdir -p $G
A=testsuite/codegen/Inputs/attention_fwd_fp8.cake
for v in regs:True smem:False; do
  n=${v%%:*} d=${v#*:}
  $CAKEC $A --target=sm_90a -DP_REGS=$d -o $G/attention_fwd_fp8_$n.cu
  $CAKEC $A --target=sm_90a -DP_REGS=$d --emit=interface -o $G/attention_fwd_fp8_$n.json
  /usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xptxas -v -Xcompiler -fPIC -shared \
    -o $G/attention_fwd_fp8_$n.so $G/attention_fwd_fp8_$n.cu > $G/attention_fwd_fp8_$n.ptxas.log 2>&1 &
done
V=testsuite/codegen/Inputs/fp8_view_store.cake
$CAKEC $V --target=sm_90a -DA_REGS=True -o $G/fp8_view_store_regs.cu
$CAKEC $V --target=sm_90a -DA_REGS=True --emit=interface -o $G/fp8_view_store_regs.json
/usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared \
  -o $G/fp8_view_store_regs.so $G/fp8_view_store_regs.cu &
T=testsuite/codegen/Inputs/fp8_a_regs_two_blocks.cake
$CAKEC $T --target=sm_90a -o $G/fp8_a_regs_two_blocks.cu
$CAKEC $T --target=sm_90a --emit=interface -o $G/fp8_a_regs_two_blocks.json
/usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared \
  -o $G/fp8_a_regs_two_blocks.so $G/fp8_a_regs_two_blocks.cu &
wait
grep -h "registers\|spill" $G/*.ptxas.log
