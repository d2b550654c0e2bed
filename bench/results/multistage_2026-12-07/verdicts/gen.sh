#!/usr/bin/env bash
# bench/results/multistage_2026-12-07/verdicts/gen.sh: the GPU verdicts of
# this day's guarded role sync in the multistage sm_80 GEMM: sync_after_first
# (the gate accepts it) and sync_after_second, no_sync (it rejects them,
# lowered here with -fno-gates=all), built (no GPU) into
# harness/gemm/generated/bin for run.sh.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
C=${CAKEC:-build-test/bin/cakec}
D=bench/results/multistage_2026-12-07/verdicts
G=harness/gemm/generated
mkdir -p $G/bin
"$C" $D/sync_after_first.cake -o $G/v_first.cu
"$C" -fno-gates=all $D/sync_after_second.cake -o $G/v_second.cu
"$C" -fno-gates=all $D/no_sync.cake -o $G/v_nosync.cu
for n in v_first v_second v_nosync; do bash harness/gemm/build.sh $G/$n.cu gemm_bf16_multistage_sm80 -o $G/bin/$n > /dev/null; done
