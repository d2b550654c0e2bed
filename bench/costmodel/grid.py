#!/usr/bin/env python3
"""grid.py - the fit's loss over a grid of calibration values (issue 39),
where accuracy.py --fit's coordinate descent may stop in a shallow valley.

  python3 bench/costmodel/grid.py BASE.cal "{'hbmLatencyUs': [0.6, 0.8], 'smFillGBs': [67.6, 85]}"
      [--cakec build-test/bin/cakec] [--csv FILE ...]

BASE.cal (a file accuracy.py --write made) gives other fields; the rest
are the cakec binary's compiled-in row (Calibration.def). Each
line of output: the grid point, the mean absolute log error (what --fit
minimises), the median absolute error and the Spearman correlation over the
fitting set's rows (history.csv's bf16 GEMMs and the --csv files' rows).
"""
import argparse
import ast
import itertools
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy as A  # noqa: E402  (read_rows, predict, score, write_cal, ROOT)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("grid", help="a Python dict literal: field -> list of values")
    ap.add_argument("--cakec", default=os.path.join(A.ROOT, "build-test/bin/cakec"))
    ap.add_argument("--csv", action="append", default=[])
    a = ap.parse_args()
    base = A.read_cal(a.base)
    grid = ast.literal_eval(a.grid)
    rows = A.read_rows([os.path.join(A.ROOT, "bench/costmodel/history.csv")] + a.csv, "fit")
    tmp = tempfile.NamedTemporaryFile("w", suffix=".cal", delete=False).name
    try:
        for vals in itertools.product(*grid.values()):
            cal = dict(base, **dict(zip(grid, vals)))
            A.write_cal(tmp, cal)
            s = A.score(rows, A.predict(rows, a.cakec, tmp))
            print(dict(zip(grid, vals)), f"{s['mean_abs_log_error']:.4f}", f"{s['median_abs_error']:.4f}",
                  f"{s['spearman']:.4f}", flush=True)
    finally:
        os.unlink(tmp)


if __name__ == "__main__":
    main()
