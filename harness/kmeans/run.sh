#!/usr/bin/env bash
# harness/kmeans/run.sh - the GPU run of a generated k-means assignment kernel,
# in one device call (generate first, here:
#   build-test/bin/cakec -I . --target=sm_90a examples/kmeans_assign_sm90a.cake -o harness/kmeans/generated/kmeans_assign_sm90a.cu
#   build-test/bin/cakec -I . --target=sm_90a examples/kmeans_assign_sm90a.cake --emit=interface -o harness/kmeans/generated/kmeans_assign_sm90a.json
#   (the interface: kmeans_bench.py calls the library through the Python package, cakec.bind)
# then, on the device, with carry harness/kmeans/generated:
#   bash harness/kmeans/run.sh [harness/kmeans/generated/kmeans_assign_sm90a.cu]
# 1. the GPU; 2. nvcc builds the generated file into a shared library (ptxas
# report kept); 3. kmeans_bench.py: correctness against an f32 reference,
# then CUPTI timing beside the Triton peer and PyTorch; 4. compute-sanitizer
# memcheck, racecheck, synccheck on `kmeans_bench.py --check-only`, filtered
# to our kernel. Logs in ${OUT:-harness/kmeans/out}; nonzero exit on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUT:-harness/kmeans/out}
mkdir -p "$OUTDIR"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SAN=${SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
GEN=${1:-harness/kmeans/generated/kmeans_assign_sm90a.cu}
name=$(basename "$GEN" .cu)
kernel=$(grep -o '__global__ void __launch_bounds__([0-9, ]*) [A-Za-z_0-9]*' "$GEN" | awk '{print $NF}')
SO=/tmp/cake_kmeans_$name.so
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
status=0
echo "== build $name (kernel $kernel)"
timeout 300 "$NVCC" -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -lineinfo -Xptxas -v -Xcompiler -fPIC -shared \
  -o "$SO" "$GEN" > "$OUTDIR/build-$name.log" 2>&1 || { echo "build failed"; cat "$OUTDIR/build-$name.log"; exit 1; }
cp "${GEN%.cu}.json" "${SO%.so}.json" || { echo "no interface ${GEN%.cu}.json: generate it (see above)"; exit 1; }
grep -A1 "Compiling entry function '$kernel'" "$OUTDIR/build-$name.log" | tail -1
grep -E "registers|spill" "$OUTDIR/build-$name.log" | head -2
echo "== correctness and timing"
( cd harness/kmeans && timeout 400 python3 kmeans_bench.py "$SO" --launcher "${kernel}_launch" --json "$OUTDIR/$name.json" ${BENCH_ARGS:-} ) \
  2>&1 | tee "$OUTDIR/bench-$name.log" | grep -v "UserWarning\|_warn_once"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
[ "${SANITIZE:-1}" = 1 ] || exit $status
echo "== compute-sanitizer (--check-only), filtered to $kernel"
for tool in memcheck racecheck synccheck; do
  ( cd harness/kmeans && timeout 240 "$SAN" --tool "$tool" --error-exitcode 9 --launch-timeout 0 --kernel-name "kns=$kernel" \
      python3 kmeans_bench.py "$SO" --launcher "${kernel}_launch" --check-only ) > "$OUTDIR/san-$tool-$name.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' "$OUTDIR/san-$tool-$name.log" | head -3 | tr '\n' ' ')"
done
echo "exit $status"
exit $status
