#!/usr/bin/env bash
# Here (cakec + nvcc, no GPU): the fp8 attention forward in FA3's form
# (examples/attention_fwd_fp8_sm90a.cake: V as it is, transposed in shared
# memory by the load warpgroup; vt: copying tile j + 1 while transposing
# tile j, the default; turn: -DAHEAD=False) and, beside them, the form that
# takes V already transposed (testsuite/codegen/Inputs/attention_fwd_fp8.cake,
# P from registers), into harness/fp8/generated/vt; the two new forms also
# with -fcheck-waits (_cw), whose waits time out, for the first run.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CAKEC=${CAKEC:-build-test/bin/cakec}
G=harness/fp8/generated/vt
mkdir -p $G
E=examples/attention_fwd_fp8_sm90a.cake
for v in "vt:$E" "turn:$E -DAHEAD=False" "vt_cw:$E -fcheck-waits" "turn_cw:$E -DAHEAD=False -fcheck-waits" pre:testsuite/codegen/Inputs/attention_fwd_fp8.cake; do
  n=${v%%:*} f=${v#*:}
  $CAKEC $f --target=sm_90a -o $G/attention_fwd_fp8_$n.cu
  $CAKEC $f --target=sm_90a --emit=interface -o $G/attention_fwd_fp8_$n.json
  /usr/local/cuda/bin/nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xptxas -v -Xcompiler -fPIC -shared \
    -o $G/attention_fwd_fp8_$n.so $G/attention_fwd_fp8_$n.cu > $G/attention_fwd_fp8_$n.ptxas.log 2>&1 &
done
wait
grep -h "registers\|spill" $G/*.ptxas.log
