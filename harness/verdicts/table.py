#!/usr/bin/env python3
"""harness/verdicts/table.py - joins the gates' verdicts (mutate.py's
variants.tsv) with the GPU's (run.sh's verdicts.tsv) into the issue-38
verdict table, in markdown on stdout.

  python3 harness/verdicts/table.py GENERATED_DIR OUT_DIR

OUT_DIR holds run.sh's verdicts.tsv and runs.log (every [run.hang] line of a
variant is read from runs.log) and, when present, racecheck.tsv (name, then
the racecheck summary) for the variants run.sh --racecheck ran.

GPU verdicts: hang (named by -fcheck-waits), wrong (result), error (the
kernel faulted: CUDA reported an error with no wait record), clean; a clean run with racecheck hazards counts as a race. A
variant is failing on the GPU unless clean. Per gate rule (each error id of
a rejected variant counts for that rule): rejected and failing, rejected but
clean; accepted and failing (a miss) and accepted and clean. For hangs: does
one of the barriers the launcher names (in any of its lines) appear in
the gates' diagnostics?
"""
import collections
import pathlib
import re
import sys

gen, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
variants = {}
for line in (gen / "variants.tsv").read_text().splitlines()[1:]:
    name, ex, ln, op, edited, gates, lowered = line.split("\t")
    variants[name] = dict(example=ex, line=ln, op=op, edited=edited, gates=gates, lowered=lowered)
gpu = {}
for line in (out / "verdicts.tsv").read_text().splitlines():
    name, verdict, detail = (line.split("\t") + ["", ""])[:3]
    gpu[name] = (verdict, detail)
hang_lines = collections.defaultdict(list)
current = None
for line in (out / "runs.log").read_text().splitlines():
    m = re.match(r"==== (\S+) \(exit", line)
    if m:
        current = m.group(1)
    elif current and "[run.hang]" in line and "launch failed" not in line:
        hang_lines[current].append(line)
races = {}
if (out / "racecheck.tsv").exists():
    for line in (out / "racecheck.tsv").read_text().splitlines():
        name, summary = (line.split("\t") + [""])[:2]
        races[name] = summary

rows = []
per_rule = collections.defaultdict(lambda: collections.Counter())
agree = disagree = 0
for name, v in sorted(variants.items()):
    if name not in gpu:
        continue
    verdict, detail = gpu[name]
    if verdict == "clean" and name in races and re.search(r"[1-9]\d* hazard", races[name]):
        verdict, detail = "race", races[name]
    elif verdict == "clean" and name in races and "[run.hang]" in races[name]:
        verdict, detail = "hang", "at the racecheck shape: " + races[name]
        hang_lines[name] = [races[name]]
    failing = verdict != "clean"
    rejected = v["gates"] != "accepted"
    named = ""
    if verdict == "hang":
        gate_text = (gen / f"{name}.gate.txt").read_text()
        bars = set(re.findall(r"on barrier '(\w+)'", " ".join(hang_lines[name]) or detail))
        ok = any(f"'{b}'" in gate_text for b in bars)
        detail = "; ".join(sorted(bars)) + ": " + detail
        named = "agrees" if ok else "differs"
        agree += ok
        disagree += not ok
    rules = v["gates"].split(",") if rejected else ["(accepted)"]
    for r in rules:
        per_rule[r]["rejected, failing" if rejected and failing else "rejected, clean" if rejected else
                    "accepted, failing" if failing else "accepted, clean"] += 1
    rows.append((name, v["op"], v["edited"], v["gates"], verdict, named, detail))

total = len(rows)
counts = collections.Counter((r[3] != "accepted", r[4] != "clean") for r in rows)
print(f"{total} variants lowered and run: rejected and failing {counts[(True, True)]}, rejected but clean "
      f"{counts[(True, False)]}, accepted and failing {counts[(False, True)]}, accepted and clean "
      f"{counts[(False, False)]}; GPU verdicts {dict(collections.Counter(r[4] for r in rows))}; hangs with a named "
      f"barrier that the gates' diagnostics name: {agree} of {agree + disagree}\n")
print("| rule | rejected, failing | rejected, clean | accepted, failing | accepted, clean |")
print("|---|---|---|---|---|")
for r in sorted(per_rule):
    c = per_rule[r]
    print(f"| {r} | {c['rejected, failing']} | {c['rejected, clean']} | {c['accepted, failing']} | {c['accepted, clean']} |")
print("\n| variant | operator | edited | gates | GPU | hang vs gate | GPU detail |")
print("|---|---|---|---|---|---|---|")
for name, op, edited, gates, verdict, named, detail in rows:
    esc = lambda s: s.replace("|", "\\|")
    print(f"| {name} | {op} | `{esc(edited)}` | {gates} | {verdict} | {named} | {esc(detail[:160])} |")
