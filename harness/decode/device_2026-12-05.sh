#!/usr/bin/env bash
# One device call for this stop's decode work (issue 35): the paged example, the
# single-block example built for two blocks per multiprocessor, the split sweep.
# Here `bash harness/torch/stage.sh`; there `bash harness/decode/device_2026-12-05.sh`
# with harness/torch/tools carried. Each part's logs under $OUT/{p,b,m}.
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-harness/decode/out}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OUT=$OUT/p PAGES=${PAGES:-"128 256 64"} bash harness/decode/paged_run.sh 2>&1 | tail -60
OUT=$OUT/b bash harness/decode/blocks_run.sh 2>&1 | tail -60
OUT=$OUT/m bash harness/decode/split_sweep.sh 2>&1 | tail -60
