#!/usr/bin/env bash
# harness/decode/run.sh - examples/attention_decode_gqa_sm90a.cake on
# the GPU in one device call. Here first: harness/torch/stage.sh (the
# compiler, carried as harness/torch/tools); there: bash harness/decode/run.sh
# 1. decode_check.py: correctness against float32 attention at several
#    batches, lengths and input scales, the launcher's refusal of L < 128,
#    then CUPTI timing beside torch's SDPA backends; 2. compute-sanitizer
#    memcheck, racecheck and synccheck on `decode_check.py --check-only`,
#    filtered to our kernel. Logs in ${OUT:-harness/decode/out}.
exec bash "$(dirname "$0")/../common/check_run.sh" decode harness/decode/decode_check.py attention_decode
