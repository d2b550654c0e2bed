#!/usr/bin/env python3
"""harness/verdicts/mutate.py - broken variants of the GEMM examples for the
GPU verdict run (issue 38, item 3), and what the gates say of each.

  python3 harness/verdicts/mutate.py OUTDIR [EXAMPLE.cake ...]

Each variant is one edit of one line of a role body or of a barrier's
declaration, by the operators below (a barrier's init_count off by one, a
wait's or arrive's stage off by one, a synchronising statement deleted, two
adjacent synchronising statements swapped, an arrive's `per=` changed, a wait
on another barrier, a wgmma wait with one group more pending, a loop that
starts one later). For each: the gates' verdict with every gate on (the ids
of the errors, or 'accepted'), then, when something rejected it, whether
-fno-gates=all -fcheck-waits lowers it; the lowered ones are written as
OUTDIR/NAME.cu for harness/verdicts/run.sh. OUTDIR/variants.tsv lists them
all: name, example, line, operator, the edited line, gate verdict, lowered.
CAKEC=path overrides build-test/bin/cakec.
"""
import os
import pathlib
import re
import subprocess
import sys

CAKEC = os.environ.get("CAKEC", "build-test/bin/cakec")
SYNC = re.compile(r"^\s*(lm\.(wait|arrive|mma_wait|mma_commit|fence_proxy|role_sync|tma_store_wait|sync)\b|"
                  r"\w+\.tma_(load|store)\()")


def mutations(lines):
    """(line index, operator, new text of the line or None to delete, swap
    partner) for every edit the operators make."""
    out = []
    for i, ln in enumerate(lines):
        s = ln.strip()
        if s.startswith("#"):
            continue
        m = re.search(r"init_count=(\d+)", ln)
        if m and "lm.barrier(" in ln:
            n = int(m.group(1))
            out.append((i, "init_count+1", ln.replace(m.group(0), f"init_count={n + 1}"), None))
            if n > 1:
                out.append((i, "init_count-1", ln.replace(m.group(0), f"init_count={n - 1}"), None))
        for op in ("wait", "arrive"):
            m = re.search(rf"lm\.{op}\((\w+), stage=([^,)]+)", ln)
            if m:
                out.append((i, f"{op}-stage+1", ln.replace(m.group(0), f"lm.{op}({m.group(1)}, stage={m.group(2)} + 1"),
                            None))
                out.append((i, f"{op}-stage-1", ln.replace(m.group(0), f"lm.{op}({m.group(1)}, stage={m.group(2)} - 1"),
                            None))
        m = re.search(r'per="(\w+)"', ln)
        if m:
            for other in ("warpgroup", "warp", "thread"):
                if other != m.group(1):
                    out.append((i, f"per-{other}", ln.replace(m.group(0), f'per="{other}"'), None))
        m = re.search(r"pending=(\d+)", ln)
        if m:
            out.append((i, "pending+1", ln.replace(m.group(0), f"pending={int(m.group(1)) + 1}"), None))
        m = re.search(r"lm\.range\(0, ", ln)
        if m and "for " in ln:
            out.append((i, "range-start+1", ln.replace("lm.range(0, ", "lm.range(1, "), None))
        if SYNC.match(ln) and not ln.rstrip().endswith(":"):
            out.append((i, "delete", None, None))
            j = i + 1
            if j < len(lines) and SYNC.match(lines[j]) and len(lines[j]) - len(lines[j].lstrip()) == len(ln) - len(
                    ln.lstrip()):
                out.append((i, "swap-next", None, j))
    # a wait on the ring's other barrier
    bars = re.findall(r"^\s*(\w+) = lm\.barrier\(", "\n".join(lines), re.M)
    for i, ln in enumerate(lines):
        m = re.search(r"lm\.wait\((\w+),", ln)
        if m:
            for b in bars:
                if b != m.group(1):
                    out.append((i, f"wait-on-{b}", ln.replace(m.group(0), f"lm.wait({b},"), None))
    return out


def gate_ids(text):
    return sorted(set(re.findall(r"error: .*\[([a-z0-9_.-]+)\]", text)))


def main():
    outdir = pathlib.Path(sys.argv[1])
    examples = sys.argv[2:] or ["examples/gemm_bf16_sm90a.cake", "examples/gemm_bf16_persistent_sm90a.cake",
                                "examples/gemm_bf16_pingpong_sm90a.cake"]
    outdir.mkdir(parents=True, exist_ok=True)
    rows, seen = [], set()
    for ex in examples:
        lines = pathlib.Path(ex).read_text().split("\n")
        stem = pathlib.Path(ex).stem.replace("gemm_bf16_", "").replace("_sm90a", "") or "gemm"
        for n, (i, op, new, swap) in enumerate(mutations(lines)):
            mutated = list(lines)
            if swap is not None:
                mutated[i], mutated[swap] = mutated[swap], mutated[i]
            elif new is None:
                indent = len(lines[i]) - len(lines[i].lstrip())
                mutated[i] = " " * indent + "pass  # deleted: " + lines[i].strip()
            else:
                mutated[i] = new
            text = "\n".join(mutated)
            if text in seen:
                continue
            seen.add(text)
            name = f"{stem}_{n:03d}_{re.sub('[^a-z0-9]+', '_', op.lower())}"
            src = outdir / f"{name}.cake"
            src.write_text(f"# harness/verdicts variant of {ex}, line {i + 1}: {op}\n" + text)
            r = subprocess.run([CAKEC, "-I", ".", str(src), "-o", "/dev/null"], capture_output=True, text=True)
            verdict = "accepted" if r.returncode == 0 else ",".join(gate_ids(r.stderr)) or "rejected"
            (outdir / f"{name}.gate.txt").write_text(r.stderr)
            lowered = "no"
            r2 = subprocess.run([CAKEC, "-I", ".", str(src), "-fno-gates=all", "-fcheck-waits", "-o",
                                 str(outdir / f"{name}.cu")], capture_output=True, text=True)
            if r2.returncode == 0:
                lowered = "yes"
            else:
                lowered = "no: " + (",".join(gate_ids(r2.stderr)) or "error")
            edited = (lines[i].strip() + " <-> " + lines[swap].strip()) if swap is not None else lines[i].strip()
            rows.append([name, ex, str(i + 1), op, edited, verdict, lowered])
    with open(outdir / "variants.tsv", "w") as f:
        f.write("name\texample\tline\toperator\tedited\tgates\tlowered\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    acc = sum(r[5] == "accepted" for r in rows)
    low = sum(r[6] == "yes" for r in rows)
    print(f"{len(rows)} variants: {acc} accepted by the gates, {len(rows) - acc} rejected; {low} lowered")


main()
