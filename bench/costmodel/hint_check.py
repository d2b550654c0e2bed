#!/usr/bin/env python3
"""hint_check.py - hint.stages against the H200 (issue 39: each hint kind
with a recorded run where applying it helped).

  python3 bench/costmodel/hint_check.py MEASURED.csv [-o OUT.txt]

For every pair of MEASURED.csv (parse.py's output) of a schedule run with
several stage counts (STAGES=n defines beside its default), the hint cakec
-Rhint gives at that shape: the stage count it names and the gain it
predicts, beside the measured time with that many stages (or the nearest
count above it that was measured); a pair without the hint is listed with
the best measured deeper ring, so a missed hint shows too.
"""
import argparse
import csv
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILES = ("examples/gemm_bf16_decode_sm90a.cake", "examples/gemm_bf16_sm90a.cake",
         "examples/gemm_bf16_persistent_sm90a.cake")


def own_stages(path):
    """A schedule's own stage count: its `STAGES = n` line."""
    m = re.search(r"^STAGES = (\d+)", open(os.path.join(ROOT, path)).read(), re.M)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measured")
    ap.add_argument("--cakec", default=os.path.join(ROOT, "build-test/bin/cakec"))
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    DEFAULT = {f: own_stages(f) for f in FILES}
    t = {}
    for r in csv.DictReader(open(a.measured)):
        f, d = r["kernel_file"], r["defines"]
        if f in DEFAULT and (not d or re.fullmatch(r"STAGES=\d+", d)):
            s = int(d.split("=")[1]) if d else DEFAULT[f]
            t[(f, int(r["M"]), int(r["N"]), int(r["K"]), s)] = float(r["ours_ms"]) * 1e3
    out, hints, helped = [], 0, 0
    for (f, M, N, K, s), us in sorted(t.items()):
        cmd = [a.cakec, "--report", "-Rhint", os.path.join(ROOT, f), "--shape", f"M={M},N={N},K={K}"]
        if s != DEFAULT[f]:
            cmd.append(f"-DSTAGES={s}")
        err = subprocess.run(cmd, capture_output=True, text=True).stderr
        deeper = sorted(x for (g, m, n, k, x) in t if (g, m, n, k) == (f, M, N, K) and x > s)
        head = f"{os.path.basename(f):34} {M}x{N}x{K:<6} {s:>2} stages {us:7.1f} us:"
        m = re.search(r"with (\d+) stages .*predicted (\d+)% faster", err)
        if m:
            named, pred = int(m.group(1)), int(m.group(2))
            at = [x for x in deeper if x >= named]
            if not at:  # only shallower rings than the named one measured: the hint was not applied
                out.append(f"{head} hint names {named}, predicts {pred}%; no ring of {named} stages or more measured")
                continue
            got = t[(f, M, N, K, at[0])]
            hints += 1
            helped += got < us
            out.append(f"{head} hint names {named}, predicts {pred}%; measured with {at[0]}: {got:.1f} us "
                       f"({100 * (1 - got / us):.0f}% faster)")
        else:
            best = min(deeper, key=lambda x: t[(f, M, N, K, x)], default=None)
            gain = f"; best deeper ring measured: {best} stages, {100 * (1 - t[(f, M, N, K, best)] / us):.0f}% faster" \
                if best else ""
            out.append(f"{head} no hint.stages{gain}")
    out.append(f"hints with a deeper ring measured: {hints}; faster with it: {helped}")
    text = "\n".join(out) + "\n"
    if a.output:
        open(a.output, "w").write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
