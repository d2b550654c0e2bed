#!/usr/bin/env bash
# On the device, after gen.sh here (harness/gemm/generated carried):
#   OUT=$OUT bash bench/results/issue36_2026-12-05e/run.sh
# The decode schedule at BK = 64 (committed), 128 and 256 at the decode
# shapes with a clean L2 and the bare read of B beside (FLUSH=read FLOOR=1);
# sanitizers on the wider variants at a decode shape and a ragged one.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export PREBUILT=harness/gemm/generated/e/bin
G=harness/gemm/generated/e
DEC="$(grep -v '^#' harness/gemm/shapes/decode_issue36.txt | tr '\n' ' ')"
EXTRA="1x4096x4096 16x4096x4096 16x4096x8192 32x5120x8192 5x1000x520"
status=0
for v in bk64 bk128 bk256 bk128n32; do
  SHAPES="$DEC $EXTRA" FLUSH=read FLOOR=1 SANITIZE="bk128 bk256" SAN_SHAPES="16 4096 14336 5 1000 520" \
    NAME=gemm_bf16_decode OUT=$OUT/dec bash harness/gemm/run.sh $G/$v.cu || status=1
done
exit $status
