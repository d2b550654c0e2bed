#!/usr/bin/env python3
"""bench/costmodel/parse.py - the GEMM harness's logs -> measured.csv.

    python3 bench/costmodel/parse.py [LOG | DIR | TARBALL ...] [-o measured.csv] [--sweep sweep.txt]

Inputs: harness/gemm logs (bench-<name>.log, as harness/gemm/run.sh writes
them; run<N>-bench-<name>.log too), directories searched for them
recursively, and .tar.gz files holding them (run.sh's gemm_logs.tar.gz).
Default: bench/costmodel/out. Output: CSV to -o (default stdout).

Columns: kernel_file, defines, kind (kernel | family), M, N, K, ours_ms,
cublas_ms, source_log, then route (the family's route for the shape, else
empty) and cublas_kernel (the cuBLAS kernel timed beside ours).

<name> is looked up in sweep.txt (its file, -D defines and, from -DFAMILY,
its kind); a log not named there gets examples/<name>.cake or
bench/variants/<name>.cake where that exists, no defines, and kind family
when its log names routes.

Times are the harness's medians of CUPTI samples (L2 flushed before each).
The table prints each in ms with 4 decimals and as TFLOP/s with 1; each time
here is taken from whichever of the two carries more digits (2 M N K /
TFLOP/s for large kernels), so 0.0715 ms at 703.7 TFLOP/s reads 0.071498.
Shapes the harness did not time (a wrong result: 0.0000 ms) are left out
and named on stderr, as are logs without a table (a process that ended
early).
"""
import argparse
import csv
import io
import os
import re
import sys
import tarfile

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
COLUMNS = ["kernel_file", "defines", "kind", "M", "N", "K", "ours_ms", "cublas_ms", "source_log",
           "route", "cublas_kernel"]

SHAPE_LINE = re.compile(r"^\s*(\d+) x\s+(\d+) x\s+(\d+): (correct|WRONG)")
ROUTE_LINE = re.compile(r"^\s+route: (\S+)")
CUBLAS_LINE = re.compile(r"^\s+cuBLAS kernel: (\S+)")
TABLE_HEAD = re.compile(r"^shape \(MxNxK\)\s+ours ms")
TABLE_ROW = re.compile(r"^(\d+)x(\d+)x(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)")
LOG_NAME = re.compile(r"(?:^|[-_])bench-(.+)\.log$")


def read_sweep(path):
    """name -> (kernel_file, defines, kind) from sweep.txt."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) < 6:
                continue
            name, kfile, defs, _kname, hflags = fields[:5]
            kind = "family" if "-DFAMILY" in hflags.split() else "kernel"
            out[name] = (kfile, " ".join(defs.split()), kind)
    return out


def best_ms(ms_text, tf_text, flops):
    """The time from whichever printed column has more significant digits."""
    try:
        ms = float(ms_text)
    except ValueError:
        return None
    try:
        tf = float(tf_text)
    except ValueError:
        tf = 0.0
    if ms <= 0:
        return None
    if tf > 0 and 0.05 / tf < 0.00005 / ms:  # relative rounding error of each column
        return flops / (tf * 1e9)
    return ms


def fmt(x):
    return f"{x:.6g}" if x is not None else ""


def parse_log(text, source, name, sweep, warn):
    per_shape = {}  # (M, N, K) -> {"route": ..., "cublas": ..., "ok": ...}
    cur = None
    rows, in_table, saw_table = [], False, False
    for line in text.splitlines():
        m = SHAPE_LINE.match(line)
        if m:
            cur = tuple(int(x) for x in m.group(1, 2, 3))
            per_shape.setdefault(cur, {})["ok"] = m.group(4) == "correct"
            continue
        m = ROUTE_LINE.match(line)
        if m and cur:
            per_shape[cur]["route"] = m.group(1)
            continue
        m = CUBLAS_LINE.match(line)
        if m and cur:
            per_shape[cur]["cublas"] = m.group(1)
            continue
        if TABLE_HEAD.match(line):
            in_table, saw_table = True, True
            continue
        if in_table:
            m = TABLE_ROW.match(line)
            if not m:
                in_table = False
                continue
            M, N, K = (int(x) for x in m.group(1, 2, 3))
            flops = 2.0 * M * N * K
            ours = best_ms(m.group(4), m.group(7), flops)
            theirs = best_ms(m.group(5), m.group(8), flops)
            info = per_shape.get((M, N, K), {})
            if ours is None or theirs is None or not info.get("ok", True):
                warn(f"{source}: {M}x{N}x{K} not timed (ours {m.group(4)} ms, cuBLAS {m.group(5)} ms"
                     f"{', WRONG' if not info.get('ok', True) else ''}): left out")
                continue
            rows.append((M, N, K, ours, theirs, info.get("route", ""), info.get("cublas", "")))
    if not saw_table:
        warn(f"{source}: no table (the harness ended before it; shapes seen: {len(per_shape)})")
        return []
    if name in sweep:
        kfile, defs, kind = sweep[name]
    else:
        kfile, defs = "", ""
        for cand in (f"examples/{name}.cake", f"bench/variants/{name}.cake"):
            if os.path.exists(os.path.join(REPO, cand)):
                kfile = cand
                break
        if not kfile:
            warn(f"{source}: '{name}' is not in sweep.txt and no examples/ or bench/variants/ file has its name")
            kfile = name
        kind = "family" if any("route" in v for v in per_shape.values()) else "kernel"
    return [{"kernel_file": kfile, "defines": defs, "kind": kind, "M": M, "N": N, "K": K,
             "ours_ms": fmt(o), "cublas_ms": fmt(t), "source_log": source, "route": r, "cublas_kernel": c}
            for (M, N, K, o, t, r, c) in rows]


def shown(path):
    """path relative to the working directory when inside it, else its file name."""
    rel = os.path.relpath(path)
    return os.path.basename(path) if rel.startswith("..") else rel


def inputs(paths):
    """(source name, log name, text) of every bench log under paths."""
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in sorted(os.walk(p)):
                for f in sorted(files):
                    full = os.path.join(root, f)
                    if LOG_NAME.search(f):
                        with open(full, errors="replace") as fh:
                            yield shown(full), LOG_NAME.search(f).group(1), fh.read()
                    elif f.endswith((".tar.gz", ".tgz")):
                        yield from inputs([full])
        elif p.endswith((".tar.gz", ".tgz", ".tar")):
            with tarfile.open(p) as tar:
                for mem in sorted(tar.getmembers(), key=lambda x: x.name):
                    m = LOG_NAME.search(os.path.basename(mem.name))
                    if mem.isfile() and m:
                        text = tar.extractfile(mem).read().decode(errors="replace")
                        yield f"{shown(p)}:{mem.name}", m.group(1), text
        elif os.path.isfile(p):
            m = LOG_NAME.search(os.path.basename(p))
            name = m.group(1) if m else os.path.splitext(os.path.basename(p))[0]
            with open(p, errors="replace") as fh:
                yield shown(p), name, fh.read()
        else:
            print(f"parse.py: no such file or directory: {p}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[os.path.join(REPO, "bench/costmodel/out")])
    ap.add_argument("-o", "--output", help="CSV file (default: stdout)")
    ap.add_argument("--sweep", default=os.path.join(REPO, "bench/costmodel/sweep.txt"))
    args = ap.parse_args()
    sweep = read_sweep(args.sweep)
    warnings = []

    def warn(msg):
        warnings.append(msg)
        print("parse.py: " + msg, file=sys.stderr)

    rows, logs = [], 0
    for source, name, text in inputs(args.paths):
        logs += 1
        rows.extend(parse_log(text, source, name, sweep, warn))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    if args.output:
        with open(args.output, "w") as f:
            f.write(buf.getvalue())
    else:
        sys.stdout.write(buf.getvalue())
    pairs = {(r["kernel_file"], r["defines"], r["M"], r["N"], r["K"]) for r in rows}
    print(f"parse.py: {len(rows)} rows ({len(pairs)} distinct kernel/defines/shape) from {logs} log(s)"
          f"{', ' + str(len(warnings)) + ' warning(s)' if warnings else ''}"
          f"{' -> ' + args.output if args.output else ''}", file=sys.stderr)
    return 1 if logs == 0 or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
