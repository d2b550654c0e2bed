#!/usr/bin/env python3
"""depfile_hostile.py CAKEC DIR: dependency files for hostile file names,
checked with a real make.

Names make can read (a space, '#', '$', ':', '%', '[', '*', a backslash before
a space) are escaped so that make sees the exact file: the output is up to
date after the compile, out of date once the imported module is touched,
`make -n` runs nothing, and with -MP deleting the module breaks nothing.
Names make cannot represent (a newline and tab that would start a recipe,
';', '=', '|', a trailing backslash, 'archive(member)') are an error, and
neither the output nor the dependency file is written. Prints one line per
case for FileCheck."""
import os
import shutil
import subprocess
import sys
import time

cakec, root = sys.argv[1], sys.argv[2]
shutil.rmtree(root, ignore_errors=True)
os.makedirs(root)


# The output is the goal, named on make's command line (where no make syntax
# applies); the pattern rule gives it a recipe that does nothing, so
# `make -n` shows exactly ':' when the output is stale and nothing more (no
# command from a file name).
MAKEFILE = "include deps.d\n%.ir:\n\t:\n"


def make(workdir, *args):
    with open(os.path.join(workdir, "Makefile"), "w") as f:
        f.write(MAKEFILE)
    return subprocess.run(["make", *args], cwd=workdir, capture_output=True, text=True)


def compile_in(workdir, incdir, output):
    os.makedirs(os.path.join(workdir, incdir), exist_ok=True)
    with open(os.path.join(workdir, incdir, "m.cake"), "w") as f:
        f.write("A = 1\n")
    with open(os.path.join(workdir, "k.cake"), "w") as f:
        f.write("import m\nB = m.A\n")
    return subprocess.run([cakec, "--emit=ir", "-Wno-missing-schedule", "k.cake", "-I", incdir, "-o", output, "-MD",
                           "-MP", "-MF", "deps.d"], cwd=workdir, capture_output=True, text=True)


ok_cases = [
    ("space", "inc dir", "out put.ir"),
    ("hash", "inc#1", "out#1.ir"),
    ("dollar", "inc$x", "out$x.ir"),
    ("colon", "inc:y", "out:y.ir"),
    ("percent", "inc%z", "out%z.ir"),
    ("wildcards", "inc[w]*?", "out[w].ir"),
    ("backslash", "inc\\ b\\x", "out\\ b.ir"),
    ("all", "a b#c$d:e%f[g]", "o p#q$r:s%t.ir"),
]
for name, incdir, output in ok_cases:
    w = os.path.join(root, name)
    os.makedirs(w)
    r = compile_in(w, incdir, output)
    if r.returncode != 0:
        print(f"{name}: compile failed: {r.stderr}")
        continue
    # Times in the past, so that touching the module leaves none in the future.
    module = os.path.join(w, incdir, "m.cake")
    now = time.time()
    for f, age in ((module, 300), (os.path.join(w, "k.cake"), 300), (os.path.join(w, output), 200)):
        os.utime(f, (now - age, now - age))
    q1 = make(w, "-q", "--", output).returncode
    os.utime(module, (now - 100, now - 100))
    q2 = make(w, "-q", "--", output).returncode
    n = make(w, "-n", "--no-print-directory", "--", output)
    os.remove(module)
    gone = make(w, "-q", "--", output)
    print(f"{name}: up-to-date={q1 == 0} stale-after-touch={q2 == 1} make-n='{n.stdout.strip()}' errors='{n.stderr.strip()}' "
          f"deleted-module-ok={'No rule' not in gone.stderr}")

bad_cases = [
    ("newline", "m\n\ttouch\tPWNED;", "out.ir"),
    ("tab", "inc\tx", "out.ir"),
    ("semicolon", "inc;x", "out.ir"),
    ("equals", "inc=x", "out.ir"),
    ("pipe", "inc|x", "out.ir"),
    ("trailing-backslash", "inc", "out.ir\\"),
    ("archive", "inc", "lib(member)"),
]
for name, incdir, output in bad_cases:
    w = os.path.join(root, name)
    os.makedirs(w)
    r = compile_in(w, incdir, output)
    lines = r.stderr.strip().split("\n")
    written = [f for f in (output, "deps.d") if os.path.exists(os.path.join(w, f))]
    pwned = os.path.exists(os.path.join(w, "PWNED"))
    print(f"{name}: status={r.returncode} lines={len(lines)} written={written} pwned={pwned}")
    print(lines[0])
