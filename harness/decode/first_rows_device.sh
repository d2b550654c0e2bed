#!/usr/bin/env bash
# harness/decode/first_rows_device.sh - one device call for first_rows= (issue 35):
# the vector and first-rows kernels of harness/fp8/vectors_check.py (correctness,
# compute-sanitizer on first_rows), then harness/decode/splitkv_run.sh (the split-KV
# example, whose partials are 8 rows of the wgmma tile, beside the single-block one).
# Here: bash harness/torch/stage.sh && bash harness/fp8/generate.sh; there, with
# harness/torch/tools and harness/fp8/generated carried: bash harness/decode/first_rows_device.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}
N=/usr/local/cuda/bin/nvcc; G=harness/fp8/generated
for v in vector_loads vector_stores first_rows; do $N -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -Xcompiler -fPIC -shared -o /tmp/cake_$v.so $G/$v.cu 2>/dev/null && cp $G/$v.json /tmp/cake_$v.json || echo BUILD FAIL $v; done
mkdir -p $OUT/vec $OUT/dec
python3 harness/fp8/vectors_check.py /tmp/cake_vector_loads.so /tmp/cake_vector_stores.so /tmp/cake_first_rows.so 2>&1 | tee $OUT/vec/vectors.log
for t in memcheck racecheck synccheck; do timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 --kernel-name kns=first_rows python3 harness/fp8/vectors_check.py /tmp/cake_vector_loads.so /tmp/cake_vector_stores.so /tmp/cake_first_rows.so > $OUT/vec/san-$t.log 2>&1; echo "$t exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|ALL CORRECT|FAIL' $OUT/vec/san-$t.log | tr '\n' ' ')"; done
OUT=$OUT/dec SINGLE=1 PART_ROWS="8 64" bash harness/decode/splitkv_run.sh 2>&1 | grep -v "efficient refuses\|flash2\|sdpa /"
