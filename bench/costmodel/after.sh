#!/usr/bin/env bash
# bench/costmodel/after.sh - THERE, on the H200, in one device call: the
# held-out kinds at after_2026-12-05.txt's shapes (measured after the fit,
# their predictions frozen in predictions_2026-12-05.csv before the run), and
# Nsight Compute's limiter on 12 GEMM kernels (issue 39's bottleneck bar).
#
#   here:   bash harness/rows/generate.sh; bash harness/fp8/generate.sh; bash harness/epilogue/generate.sh
#           (and attention's two cakec commands, harness/attention/run.sh's head); bash bench/costmodel/gen.sh
#   device: bash bench/costmodel/after.sh
#           carry ["bench/costmodel/prebuilt", "harness/rows/generated", "harness/attention/generated",
#                  "harness/fp8/generated", "harness/epilogue/generated"]
#   here:   python3 bench/costmodel/parse_after.py <files_at>/after.tar.gz -o measured_after.csv
#
# The harnesses run as their run.sh runs them (the same nvcc line, the same
# bench scripts: correctness at several shapes and scales, then CUPTI medians
# of 120 samples, L2 flushed, beside the peers), at other shapes, without the
# sanitizer passes (these kernels are unchanged since their sanitized runs).
#
# ncu: each binary of gen.sh with `--check M N K` (correctness only, no timing)
# under `ncu --clock-control none --section SpeedOfLight` plus the tensor
# pipe's counters that this ncu knows. How a limiter is read (written before
# the run): compute-bound where SM throughput >= 60% of peak and above memory
# throughput; memory-bound where memory throughput >= 60% (DRAM if DRAM's is
# the larger of DRAM and L2, else L2); latency-bound where both are below 60%.
# The model's classes map: tensor-pipe, cuda-cores, role-serialization ->
# compute; hbm-bandwidth -> DRAM; l2-bandwidth, l2-reductions -> L2;
# wave-quantization, pipeline-latency, launch-overhead, generic-memory -> latency.
# DEADLINE_S (default 560): each harness gets at most what is left of it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
RES=${OUT:-bench/costmodel/out}
mkdir -p "$RES"
W=$(mktemp -d /tmp/after.XXXXXX)
mkdir -p "$W/logs" "$W/lib"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
# shellcheck source=bench/costmodel/ncu_profile.sh
. bench/costmodel/ncu_profile.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1
start=$SECONDS
status=0
pack() { tar -czf "$RES/after.tar.gz" -C "$W" logs; }

build() {  # build SRC.cu NAME: $W/lib/NAME.so (+ its interface)
  local src=$1 name=$2
  if timeout 300 "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -lineinfo -Xptxas -v -Xcompiler -fPIC \
      -shared -o "$W/lib/$name.so" "$src" -lcuda > "$W/logs/build-$name.log" 2>&1 &&
     cp "${src%.cu}.json" "$W/lib/$name.json"; then
    echo "built $name: $(grep -E 'registers' "$W/logs/build-$name.log" | head -1 | sed 's/.*: //')"
  else
    echo "BUILD FAILED $name"; tail -5 "$W/logs/build-$name.log"
    return 1
  fi
}

main() {
  echo "== after.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname) $(git rev-parse --short HEAD 2>/dev/null)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader
  # 1. builds in the background (CPU) while ncu runs (GPU)
  local pids=()
  for k in rmsnorm_2048_4 rmsnorm_4096_4 rmsnorm_8192_2 softmax_2048_4 softmax_4096_4 softmax_8192_2 softmax_32768_1; do
    build "harness/rows/generated/$k.cu" "$k" > "$W/logs/b-$k.txt" 2>&1 & pids+=($!)
  done
  for k in attention_fwd_sm90a attention_fwd_causal_sm90a; do
    build "harness/attention/generated/$k.cu" "$k" > "$W/logs/b-$k.txt" 2>&1 & pids+=($!)
  done
  for k in gemm_fp8_e4m3 gemm_fp8_rowwise_e4m3 gemm_fp8_blockscaled_e4m3; do
    build "harness/fp8/generated/$k.cu" "$k" > "$W/logs/b-$k.txt" 2>&1 & pids+=($!)
  done
  for k in gemm_epi_silu_bf16_1 gemm_epi_none_bf16_1; do
    build "harness/epilogue/generated/$k.cu" "$k" > "$W/logs/b-$k.txt" 2>&1 & pids+=($!)
  done

  # 2. ncu (name | binary | M N K)
  local extra
  extra=$(ncu_metrics "$W/logs")
  echo "ncu metrics beside SpeedOfLight: $extra"
  while read -r name bin M N K; do
    local cap=$((${DEADLINE_S:-560} / 3 - (SECONDS - start)))
    [ "$cap" -le 120 ] || cap=120
    ncu_profile "$name" "$bin" "$M" "$N" "$K" "$cap" "$extra" "$W/logs"
    pack
  done <<'EOF'
tiled_8192 tiled 8192 8192 8192
tiled_4096 tiled 4096 4096 4096
tiled_128 tiled 128 128 512
tiled_bn128_4096 tiled_bn128_s5 4096 4096 4096
pingpong_4096x7168 pingpong 4096 7168 4096
persistent_8192x2048 persistent 8192 8192 2048
cluster_1024 cluster 1024 1024 1024
decode_1x7168 decode 1 7168 4096
decode_1x4096x14336 decode 1 4096 14336
splitk_64x8192 splitk 64 8192 8192
splitk_reduce_100x1000 splitk_reduce 100 1000 8192
family_200x304x136 family 200 304 136
EOF
  pack
  echo "== ncu done at $((SECONDS - start)) s"

  # 3. the harnesses
  for p in "${pids[@]}"; do wait "$p"; done
  cat "$W"/logs/b-*.txt
  local L=$W/lib rows="" fp8="" epi=""
  for k in rmsnorm_2048_4 rmsnorm_4096_4 rmsnorm_8192_2 softmax_2048_4 softmax_4096_4 softmax_8192_2 softmax_32768_1; do
    IFS=_ read -r kind n per <<< "$k"
    [ -f "$L/$k.so" ] && rows="$rows $L/$k.so:$kind:$n:$per"
  done
  [ -f "$L/gemm_fp8_e4m3.so" ] && fp8="$fp8 $L/gemm_fp8_e4m3.so:e4m3"
  [ -f "$L/gemm_fp8_rowwise_e4m3.so" ] && fp8="$fp8 $L/gemm_fp8_rowwise_e4m3.so:e4m3:rowwise"
  [ -f "$L/gemm_fp8_blockscaled_e4m3.so" ] && fp8="$fp8 $L/gemm_fp8_blockscaled_e4m3.so:e4m3:block"
  [ -f "$L/gemm_epi_silu_bf16_1.so" ] && epi="$epi $L/gemm_epi_silu_bf16_1.so:silu:bf16:1"
  [ -f "$L/gemm_epi_none_bf16_1.so" ] && epi="$epi $L/gemm_epi_none_bf16_1.so:none:bf16:1"
  run_step() {  # run_step NAME CAP CMD... (CAP cut to what is left of DEADLINE_S)
    local name=$1 cap=$2 t0=$SECONDS left
    shift 2
    left=$((${DEADLINE_S:-560} - (SECONDS - start)))
    [ "$left" -lt "$cap" ] && cap=$left
    if [ "$cap" -lt 20 ]; then
      echo "== $name: SKIPPED (DEADLINE_S=${DEADLINE_S:-560} s spent)"
      status=1
      return
    fi
    timeout -k 5 "$cap" "$@" > "$W/logs/$name.log" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || status=1
    echo "== $name: rc $rc, $((SECONDS - t0)) s: $(grep -hE 'ALL CORRECT|FAIL|MISMATCH|Traceback|rror' "$W/logs/$name.log" | head -3 | tr '\n' ' ')"
    pack
  }
  # shellcheck disable=SC2086  # specs are separate arguments
  run_step fp8 150 python3 harness/fp8/fp8_bench.py --shapes 2048x4096x4096,8192x4096x8192,1024x7168x8192 --json "$W/logs/fp8.json" $fp8
  # shellcheck disable=SC2086
  run_step epilogue 120 python3 harness/epilogue/epilogue_bench.py --shapes 2048x2048x2048,4096x8192x4096,1024x4096x8192 \
    --json "$W/logs/epilogue.json" $epi
  run_step attention 150 python3 harness/attention/attn_bench.py --batch 4 --heads 32 --seqlens 1024,2048 \
    --json "$W/logs/attention.json" "$L/attention_fwd_sm90a.so::noncausal" "$L/attention_fwd_causal_sm90a.so::causal"
  # shellcheck disable=SC2086
  run_step rows 200 python3 harness/rows/rows_bench.py --rows 4096,32768 --json "$W/logs/rows.json" $rows
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
  echo "== total $((SECONDS - start)) s, status $status"
  return $status
}

main 2>&1 | tee "$W/logs/after.txt"
st=${PIPESTATUS[0]}
pack
rm -rf "$W"
exit "$st"
