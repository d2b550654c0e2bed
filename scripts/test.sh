#!/usr/bin/env bash
# Runs the whole test suite from scratch: installs the packages, builds cakec
# (warnings as errors) and runs ctest (unit tests, the lit suite, the
# diagnostic-coverage check), then builds again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the suite under them, then builds the
# libFuzzer targets with clang and runs each for a minute.
# CI (.ci/run) calls exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)
# Each stage's time, and the total: the suite's budget is 30 minutes on an
# idle 2-core machine (CI allows 90).
start=$SECONDS
stage_start=$SECONDS
stage() {
  echo "   ($(( SECONDS - stage_start )) s)"
  stage_start=$SECONDS
  echo "$1"
}

echo "== build (build-test/)"
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAKEC_WERROR=ON >/dev/null
cmake --build build-test -j "$jobs"
stage "== tests"
(cd build-test && ctest --output-on-failure -j "$jobs")

stage "== sanitizer build (build-asan/)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCAKEC_WERROR=ON -DCAKEC_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
stage "== tests under address and undefined-behaviour sanitizers"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j "$jobs" -R '^(unit|lit|lit-log-reset|diagnostic-coverage)$')

stage "== fuzzers (build-fuzz/, clang): ${CAKEC_FUZZ_SECONDS:-60} s per target"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAKEC_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$jobs" --target FuzzParse FuzzPipeline
fuzz/run.sh FuzzParse "${CAKEC_FUZZ_SECONDS:-60}"
fuzz/run.sh FuzzPipeline "${CAKEC_FUZZ_SECONDS:-60}"
stage "== all test stages passed in $(( SECONDS - start )) s"
