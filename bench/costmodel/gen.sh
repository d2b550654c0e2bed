#!/usr/bin/env bash
# bench/costmodel/gen.sh - HERE (no GPU needed): compiles every kernel of
# sweep.txt with cakec and builds the GEMM harness around each with nvcc
# (harness/gemm/build.sh's nvcc line), so the GPU run (run.sh) builds nothing.
#
#   bash bench/costmodel/gen.sh            # JOBS=n parallel nvcc builds (default: nproc)
#
# Out: bench/costmodel/generated/<name>.cu (cakec's CUDA), and in
# bench/costmodel/prebuilt/ (git-ignored; carry it to the device):
# <name> (the harness binary), <name>.log (nvcc's ptxas report: registers,
# spills, shared memory of each kernel), sweep.txt (the manifest it was built
# from) and BUILD_INFO.txt (commit, cakec, nvcc). A binary whose generated
# .cu and harness sources are unchanged since its last build is kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
D=bench/costmodel
CAKEC=${CAKEC:-build-test/bin/cakec}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
G=$D/generated
P=$D/prebuilt
JOBS=${JOBS:-$(nproc)}
mkdir -p "$G" "$P"
[ -x "$CAKEC" ] || { echo "no $CAKEC (build it, or CAKEC=path)" >&2; exit 2; }

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

# 1. cakec, one .cu per line of sweep.txt; the build list for step 2.
todo=()
names=()
while IFS='|' read -r name file defs kname hflags shapes <&3; do
  name=$(trim "$name")
  case $name in '' | '#'*) continue ;; esac
  file=$(trim "$file") defs=$(trim "$defs") kname=$(trim "$kname") hflags=$(trim "$hflags")
  names+=("$name")
  dargs=()
  for d in $defs; do dargs+=("-D$d"); done
  "$CAKEC" -I . -I examples "$file" "${dargs[@]}" --target=sm_90a -o "$G/$name.new.cu"
  if [ -x "$P/$name" ] && [ -f "$G/$name.cu" ] && cmp -s "$G/$name.new.cu" "$G/$name.cu" &&
     [ "$P/$name" -nt harness/gemm/gemm_harness.cu ] && [ "$P/$name" -nt harness/common/check_cuda.h ]; then
    rm "$G/$name.new.cu"
    echo "cakec $file $defs -> $G/$name.cu (unchanged; $P/$name kept)"
  else
    mv "$G/$name.new.cu" "$G/$name.cu"
    rm -f "$P/$name"
    echo "cakec $file $defs -> $G/$name.cu"
    todo+=("$name|$kname|$hflags")
  fi
done 3< "${SWEEP:-$D/sweep.txt}"

# 2. nvcc (about 1-3 minutes a binary on 2 cores), JOBS at a time.
build_one() {  # name|kernel NAME|harness flags
  local name kname hflags t0=$SECONDS
  IFS='|' read -r name kname hflags <<< "$1"
  # shellcheck disable=SC2086  # the flags are separate arguments
  if NVCC=$NVCC bash harness/gemm/build.sh "$G/$name.cu" "$kname" $hflags -o "$P/$name" 2> "$P/$name.err"; then
    rm -f "$P/$name.err"
    echo "nvcc $name: ok ($((SECONDS - t0)) s)"
  else
    echo "nvcc $name: FAILED ($((SECONDS - t0)) s; $P/$name.err)"
  fi
}
export -f build_one
export G P NVCC
if [ ${#todo[@]} -gt 0 ]; then
  printf '%s\n' "${todo[@]}" | xargs -d '\n' -P "$JOBS" -I{} bash -c 'build_one "$@"' _ {}
fi

# 3. the record, and every binary there.
cp "${SWEEP:-$D/sweep.txt}" "$P/$(basename "${SWEEP:-$D/sweep.txt}")"
{
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "commit $(git rev-parse HEAD)$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (src/ modified in the working tree)')"
  echo "cakec $CAKEC ($(stat -c %y "$CAKEC"))"
  echo "nvcc $("$NVCC" --version | tail -1)"
} > "$P/BUILD_INFO.txt"
missing=0
for name in "${names[@]}"; do
  [ -x "$P/$name" ] || { echo "MISSING $P/$name"; missing=1; }
done
echo "ptxas reports that show spills:"
grep -l -E " [1-9][0-9]* bytes spill stores" "$P"/*.log || echo "  none"
echo "prebuilt: $(du -sh "$P" | cut -f1) in $P (${#names[@]} binaries); carry it: carry=[\"$P\"]"
exit $missing
