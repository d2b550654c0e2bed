#!/usr/bin/env python3
"""accuracy.py - how well `cakec --report` predicts measured kernel times.

  python3 bench/costmodel/accuracy.py [--cakec build-test/bin/cakec]
      [--calibration FILE] [--csv bench/costmodel/measured.csv ...]
      [--fit PARAM,PARAM,... --write FILE] [--json OUT]

Each CSV row names a .cake file, its -D defines, a shape (M, N, K or any
NAME=V columns given as `shape`) and the measured time of our kernel (ms,
CUPTI median, L2 flushed; see run.sh). For every row the compiler's report
gives a predicted time; the script prints both, the ratio, and over the rows
the Spearman rank correlation and the median absolute relative error (the
issue's bars: at least 0.9 and at most 15% on the fitting set; 0.85 and 20%
on kernels measured after the fit).

--fit names calibration fields (see src/target/Calibration.def) to fit by
coordinate descent on the mean absolute log error; the result is written
as a calibration file (--write) that `cakec --report --calibration FILE`
reads. Only the standard library is used.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# Lowering changes that moved kernel times (history.py's notes): rows
# measured before them are not the kernel the compiler makes now.
STALE_LOWERING = ("b28ae1c", "f1e6881", "43bc3c6", "a62db0e")


def kind(row):
    """The fitting set is the bf16 GEMMs; every other kind is held out."""
    f = row["kernel_file"]
    if "fp8" in f or "e4m3" in f:
        return "fp8"
    for k in ("splitk", "epilogue", "attention", "rmsnorm", "softmax", "kmeans", "gather"):
        if k in f:
            return k
    return "gemm_bf16" if "gemm" in f else "other"


def selected(row, which):
    """history.csv's rows of a set: the schedule unchanged since the run and
    no later lowering change; `fit` the bf16 GEMMs, `heldout` the rest."""
    if which == "all-rows":
        return True
    current = row.get("unchanged_since", "yes") == "yes" and not any(c in row.get("note", "") for c in STALE_LOWERING)
    if not current:
        return False
    return which == "current" or (kind(row) == "gemm_bf16") == (which == "fit")


def read_rows(paths, which="all-rows"):
    rows = []
    for p in paths:
        with open(p) as f:
            for r in csv.DictReader(line for line in f if not line.startswith("#")):
                if not selected(r, which):
                    continue
                shape = {}
                if r.get("shape"):
                    for item in r["shape"].split(","):
                        k, v = item.split("=")
                        shape[k] = int(v)
                else:
                    for k in ("M", "N", "K"):
                        if r.get(k):
                            shape[k] = int(r[k])
                rows.append({"file": r["kernel_file"], "defines": r.get("defines", "") or "", "shape": shape,
                             "ms": float(r["ours_ms"]), "kind": kind(r), "source_log": r.get("source_log", ""),
                             "csv": os.path.relpath(os.path.abspath(p), ROOT)})
    return rows


def predict(rows, cakec, calibration=None):
    """Predicted microseconds per row (None where the report gives none)."""
    groups = {}
    for i, r in enumerate(rows):
        groups.setdefault((r["file"], r["defines"]), []).append(i)

    def run(key):
        f, defines = key
        cmd = [cakec, "--report", "--report-format=json", os.path.join(ROOT, f)]
        for d in defines.split():
            cmd.append("-D" + d)
        idx = groups[key]
        for i in idx:
            cmd += ["--shape", ",".join(f"{k}={v}" for k, v in rows[i]["shape"].items())]
        if calibration:
            cmd += ["--calibration", calibration]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"accuracy.py: {' '.join(cmd)} failed:\n{p.stderr}")
        reports = json.loads(p.stdout)["reports"]
        out = {}
        # One report per shape and per kernel of the file: a family file
        # reports its route; a file of one kernel reports it.
        per_shape = len(reports) // len(idx)
        for j, i in enumerate(idx):
            rs = reports[j * per_shape:(j + 1) * per_shape]
            pick = [x for x in rs if x.get("family")] or rs
            x = pick[0]
            out[i] = (x.get("time_us") if x.get("estimated") else None, x.get("bottleneck", ""), x.get("route", ""))
        return out

    result = {}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for part in ex.map(run, groups):
            result.update(part)
    return [result[i] for i in range(len(rows))]


def frozen(rows, today, path):
    """The predictions freeze.py wrote before the run, row by row; says how
    many differ from today's (those would have been scored otherwise)."""
    table = {}
    with open(path) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            key = (r["kernel_file"], r["defines"], r["shape"])
            table[key] = (float(r["predicted_us"]) if r["predicted_us"] else None, r["bottleneck"], r["route"])
    out, moved = [], 0
    for r, now in zip(rows, today):
        p = table.get((r["file"], r["defines"], ",".join(f"{k}={v}" for k, v in r["shape"].items())), (None, "", ""))
        if p[0] and now[0] and abs(now[0] - p[0]) > 0.01 * p[0]:
            moved += 1
        out.append(p)
    print(f"(frozen predictions of {os.path.relpath(path, ROOT)}: {sum(1 for p in out if p[0])} of {len(rows)} rows; "
          f"{moved} differ by more than 1% from today's compiler)")
    return out


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va and vb else float("nan")


def median(xs):
    s = sorted(xs)
    n = len(s)
    return (s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2) if n else float("nan")


def score(rows, preds):
    pairs = [(r["ms"] * 1000, p[0]) for r, p in zip(rows, preds) if p[0]]
    meas = [m for m, _ in pairs]
    pred = [p for _, p in pairs]
    err = [abs(p - m) / m for m, p in pairs]
    logerr = [abs(math.log(p / m)) for m, p in pairs]
    return {"pairs": len(pairs), "missing": len(rows) - len(pairs), "spearman": spearman(meas, pred),
            "median_abs_error": median(err), "median_abs_log_error": median(logerr),
            "mean_abs_log_error": sum(logerr) / len(logerr) if logerr else float("nan")}


def base_calibration(cakec):
    """The compiled-in H200 row, read back from Calibration.def."""
    text = open(os.path.join(ROOT, "src/target/Calibration.def")).read()
    m = re.search(r'CALIBRATION\(Sm90a,\s*"[^"]*",(.*?),\s*"[^"]*"\)', text, re.S)
    parts = ["Sm90a", "gpu"] + [p.strip() for p in m.group(1).split(",")]
    names = ["target", "gpu", "sms", "tflops16PerSm", "tflops8PerSm", "tflopsOtherPerSm", "tflops16Device", "tflops8Device", "elementGopsPerSm",
             "hbmGBs", "hbmRunOverheadBytes", "l2GBs", "smFillGBs", "smGenericGBs", "l2ReduceGBs", "launchUs", "copyLatencyUs", "blockUs",
             "hbmLatencyUs", "hbmQueueUs", "flagHandoffUs", "smemPerSm",
             "threadsPerSm", "regsPerSm", "blocksPerSm"]
    assert len(parts) == len(names), (len(parts), len(names))
    return {n: float(v) for n, v in zip(names, parts) if n not in ("target", "gpu")}


def read_cal(path):
    """The numeric fields of a calibration file (NAME = VALUE lines, # comments)."""
    values = {}
    for line in open(path):
        line = line.split("#")[0].strip()
        if "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            if k not in ("gpu", "source"):
                values[k] = float(v)
    return values


def write_cal(path, values, comment=""):
    with open(path, "w") as f:
        if comment:
            f.write("".join(f"# {line}\n" for line in comment.splitlines()))
        for k, v in values.items():
            f.write(f"{k} = {v:.6g}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cakec", default=os.path.join(ROOT, "build-test/bin/cakec"))
    ap.add_argument("--csv", action="append", help="default: bench/costmodel/history.csv")
    ap.add_argument("--set", default=None, choices=["fit", "heldout", "current", "all-rows"],
                    help="history.csv's rows: the fitting set (bf16 GEMMs, current), the held-out kinds, every "
                         "current row, or every row (default: fit for history.csv, all-rows for --csv files)")
    ap.add_argument("--calibration")
    ap.add_argument("--fit", help="comma-separated calibration fields to fit")
    ap.add_argument("--write", help="with --fit: the calibration file to write")
    ap.add_argument("--rounds", type=int, default=4, help="with --fit: rounds of coordinate descent")
    ap.add_argument("--json", help="write the rows and the scores as JSON")
    ap.add_argument("--frozen", help="score against the predictions of this file (freeze.py's, written before the "
                                     "run) instead of today's compiler's; rows it lacks have no prediction")
    a = ap.parse_args()
    paths = a.csv or [os.path.join(ROOT, "bench/costmodel/history.csv")]
    if a.set is None:
        a.set = "all-rows" if a.csv else "fit"
    rows = read_rows(paths, a.set)
    if a.set == "heldout":
        # A family row of the fitting set runs one of its routes' schedules:
        # a held-out row of that schedule at that shape was seen by the fit.
        fit = read_rows(paths, "fit")
        seen = {(x[2], tuple(sorted(r["shape"].items())))
                for r, x in zip(fit, predict(fit, a.cakec, a.calibration)) if x[2]}
        route_file = {"splitk": ("gemm_bf16_splitk_sm90a.cake", ""),
                      "splitk_add_gemm_bf16_splitk": ("gemm_bf16_splitk_sm90a.cake", "REDUCE=True")}
        dropped = [r for r in rows if any(
            route_file.get(route) == (os.path.basename(r["file"]), r["defines"]) and shape == tuple(
                sorted(r["shape"].items())) for route, shape in seen)]
        rows = [r for r in rows if r not in dropped]
        print(f"(held out: {len(dropped)} rows left out that the fit saw through a family's route)")
    if a.fit:
        values = base_calibration(a.cakec)
        if a.calibration:
            values.update({k: v for k, v in read_cal(a.calibration).items() if k in values})
        fields = a.fit.split(",")
        tmp = tempfile.NamedTemporaryFile("w", suffix=".cal", delete=False).name

        def loss(vals):
            write_cal(tmp, vals)
            s = score(rows, predict(rows, a.cakec, tmp))
            return s["mean_abs_log_error"] if s["pairs"] else float("inf")

        best = loss(values)
        print(f"start: mean |log error| {best:.4f}", file=sys.stderr)
        step = {f: 0.5 for f in fields}
        for rnd in range(a.rounds):
            for f in fields:
                improved = True
                while improved:
                    improved = False
                    for factor in (1 + step[f], 1 / (1 + step[f])):
                        trial = dict(values)
                        trial[f] = values[f] * factor
                        l = loss(trial)
                        if l < best - 1e-6:
                            best, values, improved = l, trial, True
                            print(f"  {f} = {values[f]:.4g}: {best:.4f}", file=sys.stderr)
                            break
                step[f] /= 2
        os.unlink(tmp)
        if a.write:
            write_cal(a.write, {f: values[f] for f in fields},
                      f"fitted by accuracy.py --fit {a.fit} on {len(rows)} rows of "
                      f"{', '.join(sorted(set(r['csv'] for r in rows)))}")
            a.calibration = a.write
        print(json.dumps({f: round(values[f], 4) for f in fields}))
    preds = predict(rows, a.cakec, a.calibration)
    if a.frozen:
        preds = frozen(rows, preds, a.frozen)
    print(f"{'kernel':44} {'defines':18} {'shape':22} {'measured us':>11} {'predicted':>10} {'pred/meas':>9}  bottleneck")
    for r, p in zip(rows, preds):
        shape = "x".join(str(v) for v in r["shape"].values())
        name = os.path.basename(r["file"]) + (f" [{p[2]}]" if p[2] else "")
        t = f"{p[0]:10.2f} {p[0] / (r['ms'] * 1000):9.3f}" if p[0] else f"{'-':>10} {'-':>9}"
        print(f"{name:44} {r['defines']:18} {shape:22} {r['ms'] * 1000:11.2f} {t}  {p[1]}")
    kinds = sorted(set(r["kind"] for r in rows))
    if len(kinds) > 1:
        for k in kinds:
            sel = [i for i, r in enumerate(rows) if r["kind"] == k]
            ks = score([rows[i] for i in sel], [preds[i] for i in sel])
            print(f"  {k:10} pairs {ks['pairs']:4}; Spearman {ks['spearman']:.3f}; "
                  f"median |error| {100 * ks['median_abs_error']:.1f}%")
    s = score(rows, preds)
    print(f"pairs {s['pairs']} (without a prediction: {s['missing']}); Spearman {s['spearman']:.3f}; "
          f"median |error| {100 * s['median_abs_error']:.1f}%")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"score": s, "rows": [dict(r, predicted_us=p[0], bottleneck=p[1], route=p[2])
                                            for r, p in zip(rows, preds)]}, f, indent=1)


if __name__ == "__main__":
    main()
