#!/usr/bin/env python3
"""limiter.py - the model's bottleneck class beside Nsight Compute's limiter
(issue 39: they agree on at least 8 of 10 profiled kernels).

  python3 bench/costmodel/limiter.py after.tar.gz [--sweep bench/costmodel/sweep.txt]

Reads after.sh's logs/ncu-NAME.txt (ncu --section SpeedOfLight on one
binary of gen.sh at one shape; after.sh's table names the binary and shape)
and, for the first of our kernels in each (not cuBLAS's), reads SM, memory,
DRAM and L2 throughput (% of peak). ncu's limiter, by the rule after.sh
states (written before the run):
  compute  SM throughput >= 60% and above the memory throughput;
  dram/l2  memory throughput >= 60%: DRAM where its throughput is the larger
           of DRAM's and L2's, else L2;
  latency  both below 60%.
Beside it, Nsight Compute's own reading (added after run3, 2026-12-05): the
first rule message of the Speed Of Light section, by the unit it names
(DRAM -> dram; L2 -> l2; "Compute Workload Analysis" or "Compute is more
heavily utilized" -> compute; a grid "too small to fill" the device or
"latency issues" -> latency).
The model's class maps to one of these: tensor-pipe, cuda-cores,
role-serialization -> compute (a role whose time is mostly its thread loads,
as split-K's fix-up, is role-serialization too: ncu may call it memory or
latency there); hbm-bandwidth -> dram; l2-bandwidth,
l2-reductions -> l2; wave-quantization, pipeline-latency, launch-overhead,
generic-memory -> latency.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parse import read_sweep  # noqa: E402  (sweep.txt: name -> file, defines, kind)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = {"tensor-pipe": "compute", "cuda-cores": "compute", "role-serialization": "compute",
         "hbm-bandwidth": "dram", "l2-bandwidth": "l2", "l2-reductions": "l2", "wave-quantization": "latency",
         "pipeline-latency": "latency", "launch-overhead": "latency", "generic-memory": "latency"}
METRICS = {"Compute (SM) Throughput": "sm", "Memory Throughput": "mem", "DRAM Throughput": "dram",
           "L2 Cache Throughput": "l2", "Duration": "us"}


def profiled(text):
    """The first of our kernels' metrics in an ncu report (cuBLAS's are nvjet_*)."""
    out, cur = None, None
    for line in text.splitlines():
        m = re.match(r"^  (\S+) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line)
        if m:
            if out is not None:
                break
            cur = None if m.group(1).startswith(("nvjet", "sm90_", "cutlass")) else m.group(1)
            if cur:
                out = {"kernel": cur}
            continue
        if out is None or cur is None:
            continue
        for label, key in METRICS.items():
            m = re.match(r"^\s+" + re.escape(label) + r"\s+(\S+)\s+([\d.,]+)\s*$", line)
            if m:
                value = float(m.group(2).replace(",", ""))
                if key == "us":  # ncu picks the unit by the duration's size
                    value *= {"ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3,
                              "s": 1e6, "second": 1e6}.get(m.group(1), float("nan"))
                out[key] = value
        m = re.match(r"^\s+sm__pipe_tensor_op_hmma_cycles_active\S*\s+%\s+([\d.]+)", line)
        if m:
            out["tensor_pipe"] = float(m.group(1))
    return out


def ncu_rule(text, kernel):
    """Nsight Compute's own reading: the first rule message of our kernel's
    Speed Of Light section (INF/OPT/WRN), by the unit it names."""
    head = re.search(r"^  " + re.escape(kernel) + r" \(\d+, \d+, \d+\)x", text, re.M)
    if not head:
        return None
    text = text[head.start():]
    sol = text.find("Section: GPU Speed Of Light Throughput")
    if sol < 0:
        return None
    msg = []
    for line in text[sol:].splitlines()[1:]:
        if re.match(r"^\s+(INF|OPT|WRN)\s", line):
            msg.append(line)
        elif msg and line.strip():
            msg.append(line)
        elif msg:
            break
        elif line.startswith("  ") and not line.startswith("    "):
            break  # the next kernel or section: no rule
    m = " ".join(" ".join(msg).split())
    if not m:
        return None
    if "DRAM" in m:
        return "dram"
    if re.search(r"\bL2\b", m):
        return "l2"
    if "Compute Workload Analysis" in m or "Compute is more heavily utilized" in m:
        return "compute"
    if "too small to fill" in m or "latency issues" in m:
        return "latency"
    return "other: " + m[:60]


def ncu_class(x):
    if x["sm"] >= 60 and x["sm"] >= x["mem"]:
        return "compute"
    if x["mem"] >= 60:
        return "dram" if x["dram"] >= x["l2"] else "l2"
    return "latency"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archive")
    ap.add_argument("--sweep", default=os.path.join(ROOT, "bench/costmodel/sweep.txt"))
    ap.add_argument("--cakec", default=os.path.join(ROOT, "build-test/bin/cakec"))
    ap.add_argument("--calibration", help="a calibration file for cakec --report (default: the compiled-in one)")
    ap.add_argument("--json")
    a = ap.parse_args()
    sweep = read_sweep(a.sweep)
    with tarfile.open(a.archive) as tar:
        texts = {os.path.basename(m.name)[4:-4]: tar.extractfile(m).read().decode(errors="replace")
                 for m in tar.getmembers() if re.match(r"logs/ncu-.*\.txt$", m.name) and "metrics" not in m.name}
        table = tar.extractfile("logs/after.txt").read().decode(errors="replace")
    runs = re.findall(r"^ncu (\S+) \((\S+) (\d+) x (\d+) x (\d+)\): rc (\d+)", table, re.M)
    rows, agree, agree_rule = [], 0, 0
    for name, binary, M, N, K, rc in runs:
        x = profiled(texts.get(name, ""))
        if not x or not all(k in x for k in ("sm", "mem", "dram", "l2")):
            print(f"{name}: no metrics of our kernel (ncu rc {rc})")
            continue
        f, defines, _ = sweep[binary]
        cmd = [a.cakec, "--report", "--report-format=json", "-I", os.path.join(ROOT, "examples"),
               os.path.join(ROOT, f), "--shape", f"M={M},N={N},K={K}"] + [f"-D{d}" for d in defines.split()]
        if a.calibration:
            cmd += ["--calibration", a.calibration]
        rep = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)["reports"][0]
        model = rep.get("bottleneck", "")
        ok = MODEL.get(model) == ncu_class(x)
        agree += ok
        rule = ncu_rule(texts.get(name, ""), x["kernel"])
        agree_rule += MODEL.get(model) == rule
        rows.append({"name": name, "shape": f"{M}x{N}x{K}", "kernel": x["kernel"], "ncu": ncu_class(x),
                     "ncu_rule": rule, "agree_rule": MODEL.get(model) == rule,
                     "model": model, "model_class": MODEL.get(model), "agree": ok, "route": rep.get("route", ""),
                     **{k: x.get(k) for k in ("sm", "mem", "dram", "l2", "tensor_pipe", "us")},
                     "predicted_us": rep.get("time_us")})
    print(f"{'profile':24} {'shape':16} {'SM%':>5} {'mem%':>5} {'DRAM%':>5} {'L2%':>5} {'tc%':>5} {'ncu us':>7} "
          f"{'ncu':>8} {'model':>20} agree  ncu's rule")
    for r in rows:
        tc = f"{r['tensor_pipe']:5.1f}" if r["tensor_pipe"] is not None else "    -"
        print(f"{r['name']:24} {r['shape']:16} {r['sm']:5.1f} {r['mem']:5.1f} {r['dram']:5.1f} {r['l2']:5.1f} {tc} "
              f"{r['us'] or 0:7.1f} {r['ncu']:>8} {r['model']:>20} {'yes' if r['agree'] else 'NO ':5} "
              f"{r['ncu_rule'] or '-'} ({'yes' if r['agree_rule'] else 'NO'})")
    print(f"agree on {agree} of {len(rows)} (the rule above); with Nsight Compute's own Speed Of Light rule "
          f"(the unit its message names): {agree_rule} of {len(rows)}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
