#!/usr/bin/env bash
# harness/torch/stage.sh - puts the compiler where the device machine's run
# finds it: harness/torch/tools/ (git ignores it; name it in the device call's
# carry). cakec is not installed there, so the run carries this machine's
# build: the stripped binary, the two shared libraries it needs that the
# device image lacks (ANTLR4's runtime and fmt), and the standard library in
# the installed layout (bin/../share/cakec/stdlib, where cakec looks first).
# Usage: harness/torch/stage.sh [BUILD_DIR]   (default build-test, else build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-$( [ -x build-test/bin/cakec ] && echo build-test || echo build )}
[ -x "$build/bin/cakec" ] || { echo "stage.sh: no $build/bin/cakec: build first (scripts/build.sh)" >&2; exit 2; }
tools=harness/torch/tools
rm -rf "$tools"
mkdir -p "$tools/bin" "$tools/lib" "$tools/share/cakec"
strip -o "$tools/bin/cakec" "$build/bin/cakec"
for lib in $(ldd "$build/bin/cakec" | awk '/antlr4|libfmt/ {print $3}'); do cp -L "$lib" "$tools/lib/"; done
cp -r stdlib "$tools/share/cakec/stdlib"
du -sh "$tools"
