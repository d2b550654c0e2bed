#!/usr/bin/env python3
"""Differential test: whatever cakec accepts, it lowers, and nvcc compiles (issue 32).

  differential.py [--cakec PATH] [--nvcc PATH] [--root DIR] [--work DIR] [-j N]
                  [--list] [--only REGEX] [--xfail FILE] [--host-check {none,examples,all}]

The matrix is (input, target, defines):
- inputs: examples/*.cake; every .cake under testsuite/ without an
  `expected-error` (Inputs/ included), and of a file split by '# -----'
  lines (-split-input-file) each part without one that defines a schedule
  or a family, written to WORK/parts/
  with the file's line numbers; each ```cake block of
  docs/language.md that defines a schedule or a family (the blocks as
  tools/check_language_doc.py extracts them), written to WORK/docs/;
- targets: the --target (or -arch) of every testsuite RUN line that names
  the input (%s, %S/Inputs/x.cake, %srcroot/examples/x.cake, ...) with that
  line's -D and -I options (for a part, those of the -split-input-file
  RUN lines); the file's `# target:` comment; cakec's default
  where neither names one; for examples also every target their leading
  comment block names (`Ampere and Ada (sm_80, sm_89)`). A file that no RUN
  line names gets as module search path the folders up to its Inputs/ and
  the folders beside it that hold .cake files;
- variants: each example under each run of -DNAME=value options its comments
  document (`-DBM=128 -DSTAGES=8`), for each of its targets.
For each entry: `cakec -fsyntax-only`; if it exits 0, `cakec -o X.cu` must
too, and nvcc must compile X.cu for exactly that target
(-gencode=arch=compute_T,code=sm_T). Identical .cu files are compiled once
per target (by SHA-256). An entry that -fsyntax-only rejects (exit 1) is
outside the test; a cakec crash (any other status) is a failure.

nvcc mode: `-cubin` (the device pass: EDG's front end checks the whole
translation unit, the host launcher's bodies included, then cicc and ptxas
for the exact target), which costs 40-50% of `-c` (CPU time, measured on
the GEMM and attention examples). With --host-check
examples (the default), each example at its own target without defines is
compiled with `nvcc -c` instead, so the host compiler (g++) sees one launcher
per target family too; `all` does that for every file, `none` for none.

Known failures are listed in tools/differential_xfail.txt (tab-separated:
input, target, defines or -, reason). A listed entry that does not fail, or
that is not in the matrix, fails the test, so the list can only shrink.

Exit status: 0 when every entry passes (or fails as listed), 1 otherwise,
77 when nvcc is missing and CAKEC_ALLOW_NO_NVCC=1."""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check_language_doc import blocks  # noqa: E402  (the docs' block extraction)

TARGET_RE = re.compile(r"\bsm_\d+[a-z]?\b")
DEFINE_RUN_RE = re.compile(r"(?:(?<=\s)|^)((?:-D[A-Za-z_]\w*=[^\s,;)]+(?:\s+|$))+)")
RUN_RE = re.compile(r"^\s*(?:#|//)?\s*RUN:(.*)$")
SEGMENT_SPLIT = re.compile(r"\s*(?:\|\||&&|\||;)\s*")
WARNING_RE = re.compile(r"\b(warning\s*(?:#\S+)?\s*:.*)$")


class Entry:
    """One (input, target, defines) of the matrix and what became of it."""

    def __init__(self, name, path, target, defines, includes, kind, origin):
        self.name = name          # the input as listed (repo-relative, or docs/language.md:LINE)
        self.path = path          # the file cakec reads (repo-relative where possible)
        self.target = target
        self.defines = tuple(defines)
        self.includes = tuple(includes)
        self.kind = kind          # example, variant, test, doc
        self.origin = origin      # where the entry comes from (for --list)
        self.host_check = False
        self.expect_fail = False  # only RUN lines that expect cakec to fail name it
        self.status = None        # rejected, crash, lower-failed, nvcc-failed, passed
        self.detail = ""
        self.repro = ""
        self.cu = None
        self.digest = None

    @property
    def key(self):
        return (self.name, self.target, defines_text(self.defines))


def defines_text(defines):
    return " ".join(f"-D{d}" for d in defines) if defines else "-"


def leading_comments(text):
    out = []
    for line in text.split("\n"):
        if not line.startswith("#"):
            break
        out.append(line)
    return out


def stated_target(text):
    for line in leading_comments(text):
        if line.startswith("# target:"):
            return line[len("# target:"):].strip()
    return None


def documented_variants(text):
    """Runs of -DNAME=value in the file's comments, each run one variant."""
    comment = " ".join(line.lstrip("#").strip() for line in text.split("\n") if line.lstrip().startswith("#"))
    out = []
    for m in DEFINE_RUN_RE.finditer(comment):
        ds = tuple(tok[2:].rstrip(".") for tok in m.group(1).split())
        if ds not in out:
            out.append(ds)
    return out


def tokens(segment):
    try:
        return shlex.split(segment, posix=True)
    except ValueError:
        return segment.split()


def run_lines(path):
    """The RUN commands of a lit test file, continuation lines joined."""
    out, pending = [], ""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return out
    for line in text.split("\n"):
        m = RUN_RE.match(line)
        if not m:
            continue
        body = m.group(1).rstrip()
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        out.append(pending + body)
        pending = ""
    return out


def cakec_invocations(test, root):
    """(input path, target or None, defines, includes, expects failure, line, split) for each %cakec in the RUN
    lines of `test`; `split`: the run checks the input's parts (-split-input-file)."""
    out = []
    tdir = os.path.dirname(test)
    for line in run_lines(test):
        expanded = (line.replace("%srcroot", root).replace("%S", tdir).replace("%s", test))
        cwd = None
        for seg in SEGMENT_SPLIT.split(expanded):
            toks = tokens(seg)
            if len(toks) >= 2 and toks[0] == "cd":
                cwd = toks[1]
                continue
            if "%cakec" not in toks:
                continue
            at = toks.index("%cakec")
            args = toks[at + 1:]
            before = toks[:at]
            expect_fail = "not" in before or (
                "%expect-exit" in before and before[before.index("%expect-exit") + 1:][:1] != ["0"])
            if any(a.startswith(("--list", "--help", "--version", "--debug-crash")) for a in args):
                continue
            split = any(a in ("-split-input-file", "--split-input-file") for a in args)
            target, defines, includes, inputs = None, [], [], []
            i = 0
            while i < len(args):
                a = args[i]
                nxt = args[i + 1] if i + 1 < len(args) else ""
                if a in ("--target", "-arch", "-D", "--define", "-I", "--include-dir", "-o"):
                    i += 1
                    if a in ("--target", "-arch"):
                        target = nxt
                    elif a in ("-D", "--define"):
                        defines.append(nxt)
                    elif a in ("-I", "--include-dir"):
                        includes.append(nxt)
                elif a.startswith(("--target=", "-arch=")):
                    target = a.split("=", 1)[1]
                elif a.startswith("--define="):
                    defines.append(a.split("=", 1)[1])
                elif a.startswith("-D"):
                    defines.append(a[2:])
                elif a.startswith("--include-dir="):
                    includes.append(a.split("=", 1)[1])
                elif a.startswith("-I"):
                    includes.append(a[2:])
                elif a.endswith(".cake") and not a.startswith("-") and "%" not in a:
                    inputs.append(a)
                elif a.startswith(("<", ">", "2>")):
                    break
                i += 1
            if "%" in (target or "") or any("%" in d for d in defines) or any("%" in d for d in includes):
                continue
            for inp in inputs:
                p = os.path.normpath(os.path.join(cwd or tdir, inp))
                incs = tuple(os.path.normpath(os.path.join(cwd or tdir, d)) for d in includes)
                out.append((p, target, tuple(defines), incs, expect_fail, line.strip(), split))
    return out


def split_parts(text):
    """(first line, text) of each part of a file split by '# -----' lines, as
    cakec -split-input-file reads it: the other parts' lines blank; [] for a
    file with no such line."""
    lines = text.split("\n")
    seps = [i for i, line in enumerate(lines) if line.strip(" \t") == "# -----"]
    if not seps:
        return []
    out = []
    for first, end in zip([0] + [i + 1 for i in seps], seps + [len(lines)]):
        out.append((first + 1, "\n".join(line if first <= i < end else "" for i, line in enumerate(lines))))
    return out


def guess_includes(path, root):
    """Where a file that no RUN line names may find its modules: the folders
    from its own up to the Inputs/ folder it lies in, and the folders beside
    it that hold .cake files (modules/ of a CMake test's project)."""
    d = os.path.dirname(path)
    out = []
    if "Inputs" in d.split(os.sep):
        up = d
        while os.path.basename(up) != "Inputs":
            up = os.path.dirname(up)
            out.append(up)
    for sub in sorted(os.listdir(d)):
        full = os.path.join(d, sub)
        if os.path.isdir(full) and any(f.endswith(".cake") for f in os.listdir(full)):
            out.append(full)
    return tuple(rel(p, root) for p in out)


def rel(path, root):
    r = os.path.relpath(path, root)
    return path if r.startswith("..") else r


def query_cakec(cakec):
    targets = []
    p = subprocess.run([cakec, "--list-targets"], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("sm_"):
            targets.append(line.split()[0])
    h = subprocess.run([cakec, "--help"], capture_output=True, text=True).stdout
    m = re.search(r"\(default (sm_\w+)", h)
    return targets, (m.group(1) if m else "sm_90a")


def collect(root, work, known_targets, default_target):
    """The matrix, in a stable order."""
    entries, seen = [], {}

    def add(e):
        if e.key in seen:
            old = seen[e.key]
            old.expect_fail = old.expect_fail and e.expect_fail
            old.host_check = old.host_check or e.host_check
            return
        seen[e.key] = e
        entries.append(e)

    tests_dir = os.path.join(root, "testsuite")
    test_files = []
    for d, dirs, files in os.walk(tests_dir):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".cake", ".test")):
                test_files.append(os.path.join(d, f))
    runs, split_runs = {}, {}
    for t in test_files:
        for p, target, defines, incs, expect_fail, line, split in cakec_invocations(t, root):
            (split_runs if split else runs).setdefault(p, []).append(
                (target, defines, incs, expect_fail, f"{rel(t, root)}: RUN: {line}"))

    def from_runs(path, name, kind, stated, entry_path=None, by=runs):
        incs_all = []
        for target, defines, incs, expect_fail, origin in by.get(path, []):
            for d in incs:
                if d not in incs_all:
                    incs_all.append(d)
            e = Entry(name, entry_path or name, target or stated, defines, incs, kind, origin)
            e.expect_fail = expect_fail
            add(e)
        return tuple(incs_all)

    for f in sorted(os.listdir(os.path.join(root, "examples"))):
        if not f.endswith(".cake"):
            continue
        path = os.path.join(root, "examples", f)
        name = rel(path, root)
        text = open(path, encoding="utf-8").read()
        stated = stated_target(text) or default_target
        named = [stated] + [t for t in TARGET_RE.findall("\n".join(leading_comments(text)))
                            if t in known_targets]
        targets = list(dict.fromkeys(named))
        first = Entry(name, name, stated, (), (), "example", "the example at its `# target:`")
        first.host_check = True
        add(first)
        for t in targets[1:]:
            add(Entry(name, name, t, (), (), "example", "a target its comments name"))
        for v in documented_variants(text):
            for t in targets:
                add(Entry(name, name, t, v, (), "variant", "-D options its comments document"))
        from_runs(path, name, "example", stated)

    for t in test_files:
        if not t.endswith(".cake"):
            continue
        text = open(t, encoding="utf-8", errors="replace").read()
        parts = split_parts(text)
        for first, part in parts:
            if "expected-error" in part or not re.search(r"^@cake\.(schedule|family)\b", part, re.M):
                continue
            name = f"{rel(t, root)}:{first}"
            path = os.path.join(work, "parts", re.sub(r"[^A-Za-z0-9_.-]+", "_", name) + ".cake")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(part)
            stated = stated_target(text)
            incs = from_runs(t, name, "test", stated or default_target, path, split_runs)
            if stated or t not in split_runs:
                add(Entry(name, path, stated or default_target, (), incs or guess_includes(t, root), "test",
                          "the part at its `# target:`" if stated else "the part at the default target"))
        if "expected-error" in text or parts:
            continue
        name = rel(t, root)
        stated = stated_target(text)
        incs = from_runs(t, name, "test", stated or default_target)
        # At its own target too, where it states one, or where no RUN line
        # names it (then at the default), with the module search path its
        # RUN lines give, else a guess for the Inputs/ of other tests.
        if stated or t not in runs:
            add(Entry(name, name, stated or default_target, (), incs or guess_includes(t, root), "test",
                      "the file at its `# target:`" if stated else "the file at the default target"))

    doc = os.path.join(root, "docs", "language.md")
    if os.path.exists(doc):
        ddir = os.path.join(work, "docs")
        os.makedirs(ddir, exist_ok=True)
        for info, body, line in blocks(open(doc, encoding="utf-8").read()):
            if info != "cake" or not re.search(r"^@cake\.(schedule|family)\b", body, re.M):
                continue
            path = os.path.join(ddir, f"language_{line}.cake")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(body)
            add(Entry(f"docs/language.md:{line}", path, stated_target(body) or default_target, (), (root,),
                      "doc", "a cake block of docs/language.md"))
    return entries


def slug(e):
    s = re.sub(r"[^A-Za-z0-9_.-]+", "_", e.name)
    h = hashlib.sha256(repr(e.key).encode()).hexdigest()[:8]
    return f"{s}.{e.target}.{h}"


def cakec_cmd(cakec, e, extra):
    cmd = [cakec, "--color=never"]
    for d in e.includes:
        cmd += ["-I", d]
    cmd += [f"--target={e.target}"] + [f"-D{d}" for d in e.defines] + [e.path] + extra
    return cmd


def nvcc_cmd(nvcc, cu, arch, out, host):
    gen = f"-gencode=arch=compute_{arch[3:]},code={arch}"
    return [nvcc, "-std=c++17", "-c" if host else "-cubin", gen, cu, "-o", out]


def show(cmd, cwd):
    return f"cd {shlex.quote(cwd)} && " + " ".join(shlex.quote(c) for c in cmd)


def run(cmd, cwd, env, timeout):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -999, f"timed out after {timeout} s"
    except OSError as err:
        return -998, f"cannot run {cmd[0]}: {err}"


def lower(e, cakec, root, work, env):
    syn = cakec_cmd(cakec, e, ["-fsyntax-only"])
    rc, out = run(syn, root, env, 120)
    if rc == 1:
        e.status, e.detail, e.repro = "rejected", out, show(syn, root)
        return
    if rc != 0:
        e.status, e.detail, e.repro = "crash", f"cakec -fsyntax-only exited {rc}:\n{out}", show(syn, root)
        return
    cu = os.path.join(work, "cu", slug(e) + ".cu")
    low = cakec_cmd(cakec, e, ["-o", cu])
    rc, out = run(low, root, env, 120)
    e.repro = show(low, root)
    if rc != 0 or not os.path.exists(cu):
        e.status = "lower-failed"
        e.detail = f"-fsyntax-only accepted it, but `-o X.cu` exited {rc}:\n{out}"
        return
    e.cu = cu
    # The .cu names itself in the #line directives that follow code cakec
    # wrote without a .cake line; that name only changes where nvcc would
    # point, so it is left out of the comparison.
    e.digest = hashlib.sha256(open(cu, "rb").read().replace(f'"{cu}"'.encode(), b'"THIS.cu"')).hexdigest()


def read_xfail(path):
    out = {}
    if not path or not os.path.exists(path):
        return out
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 4:
            raise SystemExit(f"{path}:{n}: want four tab-separated fields: input, target, defines (or -), reason")
        out[(parts[0], parts[1], parts[2])] = (n, parts[3])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(HERE), help="the repository (default: ..)")
    ap.add_argument("--cakec", default=None, help="the compiler (default: $CAKEC or ROOT/build/bin/cakec)")
    ap.add_argument("--nvcc", default=None, help="default: $CUDA_HOME/bin/nvcc or /usr/local/cuda/bin/nvcc")
    ap.add_argument("--work", default=None, help="where the .cu and .cubin files go (default: a temporary folder, "
                    "kept when anything fails)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--list", action="store_true", help="print the matrix and exit")
    ap.add_argument("--only", default=None, help="only inputs whose name matches this regular expression")
    ap.add_argument("--xfail", default=None, help="expected failures (default: ROOT/tools/differential_xfail.txt)")
    ap.add_argument("--host-check", choices=["none", "examples", "all"], default="examples")
    ap.add_argument("--all-targets", action="store_true",
                    help="also try each entry at every target cakec lists (exploratory; not what ctest runs)")
    ap.add_argument("--show-rejected", action="store_true",
                    help="print every entry -fsyntax-only rejected (by default only examples and doc blocks "
                         "that no failing RUN line names)")
    a = ap.parse_args()
    start = time.monotonic()
    root = os.path.abspath(a.root)
    cakec = os.path.abspath(a.cakec or os.environ.get("CAKEC") or os.path.join(root, "build", "bin", "cakec"))
    nvcc = os.path.abspath(a.nvcc or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc"))
    xfail_path = a.xfail or os.path.join(root, "tools", "differential_xfail.txt")
    if not a.list and not os.path.exists(nvcc):
        if os.environ.get("CAKEC_ALLOW_NO_NVCC") == "1":
            print(f"differential: skipped, no nvcc at {nvcc}")
            return 77
        print(f"differential: no nvcc at {nvcc} (set CUDA_HOME, or CAKEC_ALLOW_NO_NVCC=1 to skip)", file=sys.stderr)
        return 1
    temp = None
    work = a.work
    if work is None:
        temp = tempfile.mkdtemp(prefix="cakec-differential-")
        work = temp
    work = os.path.abspath(work)
    for sub in ("cu", "obj", "docs", "parts"):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
        for f in os.listdir(os.path.join(work, sub)):  # what an earlier run left
            if f.endswith((".cu", ".cubin", ".o", ".cake")):
                os.remove(os.path.join(work, sub, f))

    known, default = query_cakec(cakec)
    entries = collect(root, work, known, default)
    if a.only:
        entries = [e for e in entries if re.search(a.only, e.name)]
    if a.all_targets:
        keys = {e.key for e in entries}
        for e in list(entries):
            for t in known:
                x = Entry(e.name, e.path, t, e.defines, e.includes, e.kind, f"{e.origin}, at every target")
                x.expect_fail = True  # rejections here are no news
                if x.key not in keys:
                    keys.add(x.key)
                    entries.append(x)
    if a.host_check == "none":
        for e in entries:
            e.host_check = False
    elif a.host_check == "all":
        for e in entries:
            e.host_check = True
    kinds = {}
    for e in entries:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    inputs = len({e.name for e in entries})
    if a.list:
        for e in entries:
            print(f"{e.name}\t{e.target}\t{defines_text(e.defines)}\t{e.kind}\t{e.origin}"
                  + (" (every RUN line naming it expects cakec to fail)" if e.expect_fail else ""))
        print(f"{len(entries)} entries over {inputs} inputs ("
              + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items())) + ")")
        return 0

    env = dict(os.environ, NO_COLOR="1")
    env.pop("CAKE_PATH", None)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(lambda e: lower(e, cakec, root, work, env), entries))
    t_cakec = time.monotonic() - start

    # One nvcc run per distinct (.cu text, target); -c where any entry asks for the host check.
    jobs = {}
    for e in entries:
        if e.cu:
            j = jobs.setdefault((e.digest, e.target), {"entries": [], "host": False})
            j["entries"].append(e)
            j["host"] = j["host"] or e.host_check

    def compile_one(item):
        (digest, arch), j = item
        cu = j["entries"][0].cu
        out = os.path.join(work, "obj", f"{digest[:16]}.{arch}" + (".o" if j["host"] else ".cubin"))
        cmd = nvcc_cmd(nvcc, cu, arch, out, j["host"])
        t0 = time.monotonic()
        rc, text = run(cmd, work, env, 900)
        j["seconds"] = time.monotonic() - t0
        j["cmd"] = cmd
        for e in j["entries"]:
            if rc == 0:
                e.status = "passed"
            else:
                e.status = "nvcc-failed"
                e.detail = f"nvcc exited {rc}:\n{text}"
                e.repro += " && " + show(nvcc_cmd(nvcc, e.cu, arch, out, j["host"]), work)
        j["warnings"] = [m.group(1) for m in map(WARNING_RE.search, text.splitlines()) if m] if rc == 0 else []

    t1 = time.monotonic()
    ordered = sorted(jobs.items(), key=lambda kv: -os.path.getsize(kv[1]["entries"][0].cu))  # longest first
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(compile_one, ordered))
    t_nvcc = time.monotonic() - t1

    xfail = read_xfail(xfail_path)
    failures, xfailed, xpassed = [], [], []
    by_key = {e.key: e for e in entries}
    for e in entries:
        bad = e.status in ("crash", "lower-failed", "nvcc-failed")
        x = xfail.get(e.key)
        if bad and x:
            xfailed.append((e, x))
        elif bad:
            failures.append(e)
        elif x:
            xpassed.append((e, x))
    stale = [] if a.only else [(k, v) for k, v in xfail.items() if k not in by_key]

    counts = {s: sum(1 for e in entries if e.status == s) for s in
              ("rejected", "crash", "lower-failed", "nvcc-failed", "passed")}
    accepted = len(entries) - counts["rejected"] - counts["crash"]
    lowered = sum(1 for e in entries if e.cu)
    host = sum(1 for j in jobs.values() if j["host"])
    for e in failures:
        print(f"FAIL {e.name} --target={e.target} {defines_text(e.defines)} [{e.status}] ({e.origin})")
        print(f"  reproduce: {e.repro}")
        print("  " + e.detail.strip().replace("\n", "\n  ")[:4000])
    for e, (n, reason) in xpassed:
        print(f"XPASS {e.name} --target={e.target} {defines_text(e.defines)}: listed at "
              f"{os.path.basename(xfail_path)}:{n} ({reason}) but it is now {e.status}: remove the line")
    for k, (n, reason) in stale:
        print(f"STALE {os.path.basename(xfail_path)}:{n}: {' '.join(k)} is not in the matrix: remove the line")
    for e, (n, reason) in xfailed:
        print(f"XFAIL {e.name} --target={e.target} {defines_text(e.defines)} [{e.status}]: {reason}")
    rejected_named = [e for e in entries if e.status == "rejected" and (a.show_rejected or (
                      not e.expect_fail and e.kind in ("example", "variant", "doc")))]
    for e in rejected_named:
        first = (e.detail.strip().splitlines() or [""])[0]
        print(f"note: not accepted, so not compiled: {e.name} --target={e.target} {defines_text(e.defines)}: {first}"
              + (f" ({e.origin})" if a.show_rejected else ""))
    warned = {}
    for j in jobs.values():
        for w in j["warnings"]:
            warned.setdefault(w, j["entries"][0].name)
    for w, name in sorted(warned.items()):
        print(f"note: nvcc warning (first in {name}): {w}")
    slowest = sorted(jobs.values(), key=lambda j: -j.get("seconds", 0))[:3]
    for j in slowest:
        print(f"note: slow nvcc run {j.get('seconds', 0):.1f} s: {j['entries'][0].name} --target={j['entries'][0].target}")

    print(f"differential: {inputs} inputs, {len(entries)} entries (" +
          ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items())) + ")")
    print(f"  accepted {accepted}, rejected by -fsyntax-only {counts['rejected']}, lowered {lowered}, "
          f"nvcc runs {len(jobs)} ({host} with the host compile), deduplicated {lowered - len(jobs)}, "
          f"compiled {counts['passed']} entries")
    print(f"  failures {len(failures)} (crash {counts['crash']}, lowering {counts['lower-failed']}, "
          f"nvcc {counts['nvcc-failed']}; expected {len(xfailed)}), unexpected passes {len(xpassed)}, "
          f"stale expected failures {len(stale)}")
    print(f"  time {time.monotonic() - start:.1f} s wall with -j {a.jobs} (cakec {t_cakec:.1f} s, nvcc {t_nvcc:.1f} s)")
    bad = failures or xpassed or stale
    if temp and bad:
        print(f"  the generated files are kept in {work}")
    elif temp:
        import shutil
        shutil.rmtree(temp, ignore_errors=True)
    if accepted == 0:
        print("FAIL no entry was accepted: the matrix is empty", file=sys.stderr)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
