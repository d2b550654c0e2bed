#!/usr/bin/env python3
"""Writes a small repository for tools/differential.py's own test, a fake cakec and a fake nvcc.

  differential_fixture.py DIR [CASE...]

DIR/root holds examples/, testsuite/ and docs/language.md; DIR/cakec is a
stand-in compiler whose behaviour each input chooses by a word in its text:
REJECT (-fsyntax-only exits 1), CRASH (exits 4), REFUSE (-fsyntax-only
accepts, -o exits 1), BADCUDA (-o writes CUDA that nvcc rejects); anything
else lowers to a kernel that compiles. DIR/nvcc stands in for nvcc where
the real one would only cost time: it fails on what the real one fails on
here (an undeclared name), and logs its arguments to DIR/nvcc.log. CASE
adds one such input to testsuite/ (rejected, crash, refuse, badcuda)."""
import os
import stat
import sys

# Shell scripts, which start faster than Python: the test runs them often.
FAKE_CAKEC = r'''#!/bin/sh
for a; do
  case $a in
    --list-targets) printf 'sm_80    lowered: yes\nsm_90a   lowered: yes\n'; exit 0 ;;
    --help) echo '  --target sm_XX   GPU target: sm_80, sm_90a (default sm_90a)'; exit 0 ;;
  esac
done
src= out= syn= target=sm_90a prev=
for a; do
  case $prev in -o) out=$a ;; esac
  case $a in *.cake) src=$a ;; -fsyntax-only) syn=1 ;; --target=*) target=${a#--target=} ;; esac
  prev=$a
done
if [ -n "$syn" ]; then
  if grep -q REJECT "$src"; then echo "$src:1:1: error: rejected" >&2; exit 1; fi
  if grep -q CRASH "$src"; then echo "internal compiler error" >&2; exit 4; fi
  exit 0
fi
if grep -q REFUSE "$src"; then echo "$src:1:1: error: cannot lower this" >&2; exit 1; fi
body=
if grep -q BADCUDA "$src"; then body='this_is_not_declared();'; fi
# -D changes nothing here: a variant's .cu differs from the plain one only in
# the name of the output in its #line, so the tool compiles one of them.
printf '// from %s for %s\n#line 3 "%s"\n__global__ void k() { %s }\n' "$src" "$target" "$out" "$body" > "$out"
'''

FAKE_NVCC = r'''#!/bin/sh
echo "$*" >> "$(dirname "$0")/nvcc.log"
cu= out= prev=
for a; do
  case $prev in -o) out=$a ;; esac
  case $a in *.cu) cu=$a ;; esac
  prev=$a
done
if grep -q this_is_not_declared "$cu"; then
  echo "$cu(4): error: identifier \"this_is_not_declared\" is undefined" >&2
  exit 2
fi
: > "$out"
'''

CASES = {
    "rejected": "# REJECT\n",
    "crash": "# CRASH\n",
    "refuse": "# REFUSE\n",
    "badcuda": "# BADCUDA\n",
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    out = sys.argv[1]
    root = os.path.join(out, "root")
    for name, text in (("cakec", FAKE_CAKEC), ("nvcc", FAKE_NVCC)):
        write(os.path.join(out, name), text)
        os.chmod(os.path.join(out, name), os.stat(os.path.join(out, name)).st_mode | stat.S_IXUSR)
    write(os.path.join(root, "examples", "good.cake"),
          "# An example for sm_90a and Ampere (sm_80); cakec -DV=2 -DW=3 is a variant.\n"
          "# target: sm_90a\nV = 1\n")
    write(os.path.join(root, "testsuite", "a", "pass.cake"), "# target: sm_80\nX = 1\n")
    write(os.path.join(root, "testsuite", "a", "runs.cake"),
          "# RUN: %cakec --target=sm_80 -DR=1 %s -o %t.cu\n# RUN: not %cakec -fsyntax-only --target=sm_80 %S/Inputs/in.cake\nX = 1\n")
    write(os.path.join(root, "testsuite", "a", "Inputs", "in.cake"), "X = 2\n")
    write(os.path.join(root, "testsuite", "a", "err.cake"), "X = 1  # expected-error {{bad}}\n")
    write(os.path.join(root, "testsuite", "a", "split.cake"),
          "# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_80 %s\n@cake.schedule()\ndef k(lm):\n"
          "    pass  # expected-error {{bad}}\n# -----\n@cake.schedule()\ndef k(lm):\n    pass\n")
    write(os.path.join(root, "docs", "language.md"),
          "# doc\n\n```cake\n@cake.schedule()\ndef k(lm):\n    pass\n```\n\n```cake\nX = 1\n```\n")
    for case in sys.argv[2:]:
        write(os.path.join(root, "testsuite", "b", case + ".cake"), CASES[case])


if __name__ == "__main__":
    main()
