#!/usr/bin/env bash
# harness/gather/run.sh - examples/gather_rows_sm90a.cake (lm.load_scalar) on
# the GPU in one device call. Here first: harness/torch/stage.sh (the
# compiler, carried as harness/torch/tools); there: bash harness/gather/run.sh
# 1. gather_check.py: correctness at seven shapes through the launcher and
#    the torch operator, the launcher's refusals, an index outside the
#    declared range stopping the kernel with its message, then CUPTI timing
#    beside index_select, F.embedding and a copy; 2. compute-sanitizer
#    memcheck, racecheck and synccheck on `gather_check.py --check-only`,
#    filtered to our kernel. Logs in ${OUT:-harness/gather/out}.
exec bash "$(dirname "$0")/../common/check_run.sh" gather harness/gather/gather_check.py gather_rows
