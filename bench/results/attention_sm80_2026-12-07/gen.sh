#!/usr/bin/env bash
# bench/results/attention_sm80_2026-12-07/gen.sh: generates (here, no GPU)
# the FlashAttention-2-form attention forward for sm_80 and its interface,
# one folder per variant (FOLDER FILE KERNEL-NAME FLAGS...; a file name with
# 'causal' in it is run causal by harness/attention/run.sh, whose launcher
# is the file name plus _launch), which run.sh builds for sm_90a and runs on
# the device. LIST=second gives the second call's variants, LIST=final the
# third's.
set -euo pipefail
cd "$(dirname "$0")/../../.."
C=${CAKEC:-build-test/bin/cakec}
G=harness/attention/generated
second='w8n64 attention_fwd_sm80 attention_fwd_sm80 -DWARPS=8 -DBN=64
w8n128 attention_fwd_sm80 attention_fwd_sm80 -DWARPS=8 -DBN=128
w4n32 attention_fwd_sm80 attention_fwd_sm80 -DWARPS=4 -DBN=32'
final='default attention_fwd_sm80 attention_fwd_sm80
causal attention_fwd_sm80_causal attention_fwd_sm80_causal -DCAUSAL=True
causal64 attention_fwd_sm80_causal attention_fwd_sm80_causal -DCAUSAL=True -DBN=64'
case ${LIST:-final} in second) list=$second ;; *) list=$final ;; esac
while read -r folder file kname flags; do
  mkdir -p $G/$folder
  # shellcheck disable=SC2086  # the flags are separate arguments
  "$C" examples/attention_fwd_sm80.cake --kernel-name "$kname" $flags -o $G/$folder/$file.cu
  # shellcheck disable=SC2086
  "$C" examples/attention_fwd_sm80.cake --kernel-name "$kname" $flags --emit=interface -o $G/$folder/$file.json
done <<< "$list"
