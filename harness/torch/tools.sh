# harness/torch/tools.sh - sourced by the device-side scripts that run the
# compiler there (harness/torch/run.sh, and harness/common/check_run.sh for harness/gather and harness/decode), from the
# repository root: the compiler harness/torch/stage.sh staged (carried as
# harness/torch/tools), its libraries, and nvcc, for the Python package.
TOOLS=harness/torch/tools
export CAKEC=$PWD/$TOOLS/bin/cakec
export LD_LIBRARY_PATH=$PWD/$TOOLS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
export PYTHONUNBUFFERED=1
if [ ! -x "$CAKEC" ]; then
  echo "no $CAKEC: run harness/torch/stage.sh here and carry harness/torch/tools" >&2
  exit 2
fi
