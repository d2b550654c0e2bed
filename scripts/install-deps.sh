#!/usr/bin/env bash
# Installs the Debian packages cakec needs to build and test, if missing.
# Safe to run repeatedly; runs apt-get only when something is absent.
set -euo pipefail

PACKAGES=(
  gcc g++ cmake ninja-build python3  # toolchain and build (cc: the C header test)
  antlr4 libantlr4-runtime-dev       # parser generator and its C++ runtime
  libcli11-dev libfmt-dev            # command line, formatting
  doctest-dev llvm-14-tools          # unit tests; lit, FileCheck, not, count
  groff-base make                    # man page lint; the Make depfile test
  python3-jsonschema                 # validating SARIF output against its schema
  python3-pip python3-setuptools     # installing the Python package from the checkout (its test)
  clang-14 libclang-rt-14-dev        # libFuzzer targets (fuzz/)
  clang-format-14                    # the C++ style check (.clang-format)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "cakec: installing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "cakec: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
