#!/usr/bin/env python3
"""parse_after.py - after.sh's harness reports (after.tar.gz: logs/fp8.json,
epilogue.json, attention.json, rows.json) as rows for accuracy.py: the CSV
columns kernel_file, defines, shape, ours_ms, peer_ms (the fastest peer),
peer, source_log. Only correct kernels' times are written.

  python3 bench/costmodel/parse_after.py after.tar.gz -o measured_after.csv
"""
import argparse
import csv
import json
import os
import sys
import tarfile

# A library's name (after.sh's build names) -> (.cake file, its -D defines),
# as after_2026-12-05.txt names them.
LIBS = {
    "rmsnorm_2048_4": ("examples/rmsnorm_sm90a.cake", "N=2048"),
    "rmsnorm_4096_4": ("examples/rmsnorm_sm90a.cake", "N=4096"),
    "rmsnorm_8192_2": ("examples/rmsnorm_sm90a.cake", "N=8192 SPLIT=2"),
    "softmax_2048_4": ("examples/softmax_sm90a.cake", "N=2048"),
    "softmax_4096_4": ("examples/softmax_sm90a.cake", "N=4096"),
    "softmax_8192_2": ("examples/softmax_sm90a.cake", "N=8192 SPLIT=2"),
    "softmax_32768_1": ("examples/softmax_sm90a.cake", "N=32768 WARPS=8 SPLIT=8"),
    "attention_fwd_sm90a": ("examples/attention_fwd_sm90a.cake", ""),
    "attention_fwd_causal_sm90a": ("examples/attention_fwd_sm90a.cake", "CAUSAL=True"),
    "gemm_fp8_e4m3": ("examples/gemm_fp8_sm90a.cake", ""),
    "gemm_fp8_rowwise_e4m3": ("examples/gemm_fp8_rowwise_sm90a.cake", ""),
    "gemm_fp8_blockscaled_e4m3": ("examples/gemm_fp8_blockscaled_sm90a.cake", "PRODUCTS=1"),  # the schedule it ran
    "gemm_epi_silu_bf16_1": ("examples/gemm_bf16_epilogue_sm90a.cake", "ACT=3"),
    "gemm_epi_none_bf16_1": ("examples/gemm_bf16_epilogue_sm90a.cake", "ACT=0"),
}
PEERS_EXCLUDED = ("ours", "copy")  # the copy is a floor, not a peer


def best_peer(res):
    peers = {k: v["median_ms"] for k, v in res.items() if k not in PEERS_EXCLUDED and isinstance(v, dict) and "median_ms" in v}
    if not peers:
        return "", ""
    name = min(peers, key=peers.get)
    return peers[name], name


def rows_of(name, data, source, warn):
    out = []
    entries = data["kernels"] if isinstance(data, dict) else data
    for e in entries:
        lib = os.path.splitext(os.path.basename(e["lib"]))[0]
        if lib not in LIBS:
            warn(f"{source}: a library parse_after.py does not know: {lib}")
            continue
        if not e.get("correct"):
            warn(f"{source}: {lib} not correct: its times are left out")
            continue
        f, defines = LIBS[lib]
        for t in e.get("timing", []):
            if name == "attention":
                if "results" not in t:
                    continue
                res, shape = t["results"], f"BH={data.get('bh', 128)},S={t['S']}"
            elif name == "rows":
                res, shape = t, f"M={t['M']}"
            else:
                res, shape = t, "M={},N={},K={}".format(*t["shape"])
            peer_ms, peer = best_peer(res)
            out.append({"kernel_file": f, "defines": defines, "shape": shape, "ours_ms": res["ours"]["median_ms"],
                        "peer_ms": peer_ms, "peer": peer, "source_log": f"{source}"})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archive")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--bh", type=int, default=128, help="attention's batch x heads (after.sh: 4 x 32)")
    a = ap.parse_args()
    problems = []
    rows = []
    with tarfile.open(a.archive) as tar:
        for name in ("fp8", "epilogue", "attention", "rows"):
            try:
                data = json.load(tar.extractfile(f"logs/{name}.json"))
            except KeyError:
                problems.append(f"{a.archive}: no logs/{name}.json (that harness did not finish)")
                continue
            if name == "attention":
                data["bh"] = a.bh
            rows += rows_of(name, data, f"{os.path.basename(a.archive)}:logs/{name}.json", problems.append)
    with open(a.output, "w", newline="") as f:
        w = csv.DictWriter(f, ["kernel_file", "defines", "shape", "ours_ms", "peer_ms", "peer", "source_log"])
        w.writeheader()
        w.writerows(rows)
    for p in problems:
        print(f"parse_after.py: {p}", file=sys.stderr)
    print(f"parse_after.py: {len(rows)} rows -> {a.output}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
