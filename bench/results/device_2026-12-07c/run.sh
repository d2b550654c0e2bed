#!/usr/bin/env bash
# One device call (carry harness/fp8/generated, harness/gemm/generated/f,
# harness/rows/generated; generated here first by
# bench/results/fp8_attention_regs_2026-12-07/gen.sh,
# bench/results/flag_2026-12-07/family_gen.sh,
# bench/results/issue37_2026-12-06c/gen.sh and
# bench/results/softmax_staged_2026-12-06/gen.sh): the fp8 attention forward
# with P from registers (any GPU), then, on an H200 only, the runs owed to
# one (the family at issue 36's lists, fp8 block-scaled, the staged softmax).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 2
OUT=${OUT:-/tmp/dev07c}
OUT=$OUT/att bash bench/results/fp8_attention_regs_2026-12-07/run.sh 2>&1 | tail -30
ONLY_H200=1 SERIAL=0 OUT=$OUT/h200 bash bench/results/flag_2026-12-07/device.sh
