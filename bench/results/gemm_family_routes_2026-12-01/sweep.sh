#!/usr/bin/env bash
# The route sweep of 2026-12-01 (issue 17), one device call, timing only:
#   here:   bash bench/results/gemm_family_routes_2026-12-01/gen.sh   (cakec + nvcc, no GPU)
#   device: bash bench/results/gemm_family_routes_2026-12-01/sweep.sh  (carry harness/gemm/generated)
# Each variant is a harness binary built around one schedule's generated code
# (ours and cuBLAS in one process, CUPTI, L2 flushed, median of 120).
set -uo pipefail
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
B=harness/gemm/generated/bin
DEC="1x7168x4096 8x7168x4096 13x7168x4096 16x7168x4096 32x7168x4096 64x7168x4096 16x4104x4104"
SMALL="256x512x128 200x304x136 1000x1000x1000 777x1536x520"
BIG="4095x4104x4088 4096x4104x4096 4096x4096x4088 4095x4096x4096 4096x4096x4096"
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
st=0
run() {  # run VARIANT [ENV=...] SHAPES
  local v=$1; shift
  echo "== $v $*"
  env "$@" timeout 120 $B/$v | grep -vE "^  launcher check|^    route" || st=1
}
if [ "${PART:-1}" = 1 ]; then  # logs/sweep1.txt
run dec56 FLOOR=1 SHAPES="$DEC"
run dec56 FLOOR=1 FLUSH=read SHAPES="16x7168x4096 64x7168x4096"
run decclip SHAPES="$DEC"
run decclip FLUSH=read SHAPES="16x7168x4096 64x7168x4096"
run dec32 SHAPES="16x4104x4104 64x4104x4104 16x7168x4096"
for v in small128 d64n64 d64n128 d64n256; do run $v SHAPES="$SMALL"; done
for v in tiled persistent; do run $v SHAPES="$BIG"; done
fi
if [ "${PART:-1}" = 2 ]; then  # logs/sweep2.txt
run dec32clip SHAPES="16x4104x4104 64x4104x4104 1x4104x4104"
run d128 SHAPES="100x7168x4096 128x7168x4096 96x7168x4096"
run d128clip SHAPES="100x7168x4096 128x7168x4096 96x7168x4096"
for v in tiled tiled_p128 tiled_pnone; do run $v SHAPES="4096x4096x4088 4096x4096x4096 4095x4104x4088"; done
run small128 SHAPES="$SMALL"
fi
if [ "${PART:-1}" = 3 ]; then  # logs/sweep3.txt
run decclip SHAPES="16x7168x4096 64x7168x4096 16x4104x4104"
run decp1clip SHAPES="16x7168x4096 64x7168x4096 16x4104x4104"
for v in small128 small64 d64n64 d64n64s4; do run $v SHAPES="$SMALL"; done
for v in tiled_p128 small128_p128; do run $v SHAPES="4095x4104x4088 4096x4096x4088"; done
fi
if [ "${PART:-1}" = 4 ]; then  # logs/sweep4.txt
FIVE="4096x4096x4096 8192x8192x8192 4096x7168x4096 4096x4096x1024 8192x8192x2048"
MID="1000x1000x1000 777x1536x520 4095x4104x4088 4096x4096x4088"
for v in ppc ppc_p128; do run $v SHAPES="$MID"; done
for v in tiled tiled_p128 persistent persistent_p128 ppc ppc_p128; do run $v SHAPES="$FIVE"; done
fi
exit $st
