#!/usr/bin/env python3
"""What -fsyntax-only accepts lowers and compiles: every schedule the
compiler accepts among the test inputs (each part of a split-input file),
the examples, and the examples under -D variants of their knobs, is lowered
with -o and compiled with nvcc for its target. Prints one line per case and
a DEFECT block for each accepted case that does not lower or compile.

  bench/sweeps/accept_lowers.py [--cakec PATH] [--jobs N] [--inputs] [--variants] [--match RE]

Run on a CPU machine with the CUDA toolkit (no GPU needed); a full run takes
about an hour on 2 cores. A temporary copy of each split part is written
beside its file (imports resolve from there) and removed after."""
import argparse, concurrent.futures as cf, glob, itertools, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NVCC = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")
# Values tried for each knob an example defines (one knob at a time, then pairs).
VALS = {"STAGES": ["1", "2", "3", "4", "6", "8"], "BN": ["64", "96", "128", "192", "256"], "BM": ["1", "2", "64", "128"],
        "CAUSAL": ["True"], "REDUCE": ["True"], "DETERMINISTIC": ["False"], "SPLIT": ["1", "2", "4", "8", "32"],
        "WARPS": ["1", "2", "8"], "N": ["1024", "2048", "8192", "32768"], "ROWS": ["1", "2", "8"], "GROUP_M": ["1", "4"],
        "B_E5M2": ["True"], "PROMOTE": ["True"], "INFLIGHT": ["True"], "PROMOTE_EVERY": ["2", "4"], "ACT": ["0", "1", "2"],
        "BIAS_F32": ["True"], "RESIDUAL": ["False"], "GROUP": ["4", "16"], "D": ["64", "256"], "BK": ["32", "64", "128"]}


def target_of(path, src):
    m = re.search(r"--target=(\S+)", src) or re.search(r"# target: (\S+)", src)
    if m:
        return m.group(1)
    m = re.search(r"_sm(\d+a?)\.cake$", path)
    return "sm_" + m.group(1) if m else "sm_90a"


def cases(inputs, variants):
    out = []
    if inputs:
        files = sorted(glob.glob(ROOT + "/testsuite/**/*.cake", recursive=True)) + sorted(glob.glob(ROOT + "/examples/*.cake"))
        for f in files:
            src = open(f).read()
            parts = src.split("\n# -----\n") if "split-input-file" in src else [src]
            for i, p in enumerate(parts):
                out.append((f, i, p, target_of(f, src), []))
    if variants:
        for f in sorted(glob.glob(ROOT + "/examples/*.cake")):
            src = open(f).read()
            knobs = [k for k in re.findall(r"^([A-Z_0-9]+) = ", src, re.M) if k in VALS]
            defs = [[f"-D{k}={v}"] for k in knobs for v in VALS[k]]
            defs += [[f"-D{a}={va}", f"-D{b}={vb}"] for a, b in itertools.combinations(knobs, 2)
                     for va in VALS[a][:3] for vb in VALS[b][:2]]
            out += [(f, 0, None, target_of(f, src), d) for d in defs]
    return out


def run(cakec, tmp, case):
    f, i, part, target, defs = case
    name = re.sub(r"[^A-Za-z0-9]", "_", os.path.relpath(f, ROOT)) + f"_{i}_" + "_".join(d[2:] for d in defs)
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    path = f
    if part is not None:
        path = os.path.join(os.path.dirname(f), f".sweep_{os.getpid()}_{name}.cake")
        open(path, "w").write(part)
    try:
        r = subprocess.run([cakec, "-fsyntax-only", f"--target={target}", *defs, path], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            return "rejected", ""
        cu = os.path.join(tmp, name + ".cu")
        r = subprocess.run([cakec, f"--target={target}", *defs, path, "-o", cu], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            return "lower", r.stderr[-1500:]
        arch = target.replace("sm_", "")
        r = subprocess.run([NVCC, "-std=c++17", f"-gencode=arch=compute_{arch},code=sm_{arch}", "-c", cu, "-o", cu + ".o"],
                           capture_output=True, text=True, timeout=600)
        for x in (cu, cu + ".o"):
            if os.path.exists(x):
                os.unlink(x)
        return ("nvcc", r.stderr[-1500:]) if r.returncode != 0 else ("ok", "")
    except subprocess.TimeoutExpired:
        return "timeout", ""
    finally:
        if part is not None and os.path.exists(path):
            os.unlink(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cakec", default=os.path.join(ROOT, "build", "bin", "cakec"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--inputs", action="store_true", help="the test inputs and examples as written")
    ap.add_argument("--variants", action="store_true", help="the examples under -D variants")
    ap.add_argument("--match", default="", help="only files whose path matches this regular expression")
    a = ap.parse_args()
    if not (a.inputs or a.variants):
        a.inputs = a.variants = True
    todo = [c for c in cases(a.inputs, a.variants) if re.search(a.match, c[0])]
    print(f"{len(todo)} cases", flush=True)
    counts, defects = {}, 0
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(a.jobs) as ex:
        for case, (status, err) in zip(todo, ex.map(lambda c: run(a.cakec, tmp, c), todo)):
            counts[status] = counts.get(status, 0) + 1
            label = f"{os.path.relpath(case[0], ROOT)} part {case[1]} {case[3]} {' '.join(case[4])}"
            if status in ("ok", "rejected"):
                print(status, label, flush=True)
            else:
                defects += 1
                print("DEFECT", status, label, "\n" + err, flush=True)
    print("summary:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
