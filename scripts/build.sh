#!/usr/bin/env bash
# Sets everything up and runs the main job: installs the packages, configures
# and builds cakec into build/, then compiles an example kernel.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build

mkdir -p build/out
example=examples/mandatory_forms.cake
out=build/out/mandatory_forms.ir
build/bin/cakec --target=sm_100a "$example" -o "$out"
echo "cakec: compiled $example for sm_100a; output written to $out"
