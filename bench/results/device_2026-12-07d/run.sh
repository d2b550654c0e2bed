#!/usr/bin/env bash
# One device call (carry harness/fp8/generated, harness/gemm/generated/f,
# harness/rows/generated; generated here first by
# bench/results/fp8_attention_vt_2026-12-07/gen.sh,
# bench/results/fp8_attention_regs_2026-12-07/gen.sh and, for the H200 part,
# bench/results/flag_2026-12-07/family_gen.sh,
# bench/results/issue37_2026-12-06c/gen.sh and
# bench/results/softmax_staged_2026-12-06/gen.sh): the fp8 attention forward
# with V transposed in shared memory and the fp8 A-from-registers check of
# two m64 blocks (any GPU), then, on an H200 only, the runs owed to one.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/dev07d}
mkdir -p "$OUT"
OUT=$OUT/vt bash bench/results/fp8_attention_vt_2026-12-07/run.sh 2>&1 | tail -30
G=harness/fp8/generated/att
timeout 60 python3 harness/fp8/fp8_a_regs_check.py $G/fp8_a_regs_two_blocks.so 2>&1 | tee "$OUT/fp8_a_regs_two_blocks.log" | tail -12
ONLY_H200=1 SERIAL=0 OUT=$OUT/h200 bash bench/results/flag_2026-12-07/device.sh
