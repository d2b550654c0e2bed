#!/usr/bin/env python3
"""harness/verdicts/table.py - joins the gates' verdicts (mutate.py's
variants.tsv) with the GPU's (run.sh's verdicts.tsv) into the issue-38
verdict table, in markdown on stdout.

  python3 harness/verdicts/table.py GENERATED_DIR OUT_DIR [JITTER_OUT_DIR]
  python3 harness/verdicts/table.py --gate-tests GATE_TESTS_DIR OUT_DIR

JITTER_OUT_DIR, when given, holds run.sh's verdicts.tsv and runs.log for
the clean variants lowered again with -fjitter (jitter.sh): a variant clean
in OUT_DIR that fails there takes that verdict, marked "(jitter)".

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


def gate_tests_table(gen, out):
    """The gate tests' programs (generic.py, run_generic.sh): per program its
    gate ids, the GPU verdict, the sanitizers' summaries and, for a hang,
    whether a barrier it names is one the gates' diagnostics name."""
    programs = [l.split("\t") for l in (gen / "programs.tsv").read_text().splitlines()[1:]]
    gpu = {l.split("\t")[0]: l.split("\t")[1:] for l in (out / "generic.tsv").read_text().splitlines()}
    san = collections.defaultdict(list)
    for l in ((out / "sanitizer.tsv").read_text().splitlines() if (out / "sanitizer.tsv").exists() else []):
        name, tool, summary = (l.split("\t") + ["", ""])[:3]
        if not re.search(r"(: 0 errors|0 hazards displayed \(0 errors, 0 warnings\))$", summary):
            san[name].append(f"{tool}: {summary}")
    rows, counts, agree = [], collections.Counter(), [0, 0]
    for name, src, gates, lowered in programs:
        if name not in gpu:
            rows.append((name, gates, lowered, "", ""))
            continue
        verdict, detail = (gpu[name] + [""])[:2]
        if verdict == "ran" and san[name]:
            verdict = "race" if any("racecheck" in x and "hazard" in x for x in san[name]) else "sanitizer"
            detail = "; ".join(san[name])
        named = ""
        if verdict == "hang" and "none of its waits ran out" in detail:
            verdict = "hang (the launcher's deadline: no barrier named)"
        elif verdict == "hang":
            bars = set(re.findall(r"(?:on barrier|at named barrier) '(\w+)'", detail))
            text = (gen / f"{name}.gate.txt").read_text() if (gen / f"{name}.gate.txt").exists() else ""
            ok = any(f"'{b}'" in text for b in bars)
            agree[0 if ok else 1] += 1
            named = " (barrier named by the gates)" if ok else " (barrier not named by the gates)"
        kind = "control" if gates == "accepted" else "rejected"
        counts[(kind, verdict)] += 1
        rows.append((name, gates, verdict + named, detail, kind))
    print(f"{len(programs)} programs: " + ", ".join(f"{k} {v}: {n}" for (k, v), n in sorted(counts.items())) +
          f"; hangs whose barrier the gates' diagnostics name: {agree[0]} of {sum(agree)}\n")
    print("| program | gates | GPU | detail |")
    print("|---|---|---|---|")
    for name, gates, verdict, detail, _ in rows:
        print(f"| {name} | {gates} | {verdict} | {detail[:200].replace('|', '/')} |")


if sys.argv[1] == "--gate-tests":
    gate_tests_table(pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]))
    sys.exit(0)
gen, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
variants = {}
for line in (gen / "variants.tsv").read_text().splitlines()[1:]:
    name, ex, ln, op, edited, gates, lowered = line.split("\t")
    variants[name] = dict(example=ex, line=ln, op=op, edited=edited, gates=gates, lowered=lowered)


def read_run(d):
    verdicts, hangs, current = {}, collections.defaultdict(list), None
    for line in (d / "verdicts.tsv").read_text().splitlines():
        name, verdict, detail = (line.split("\t") + ["", ""])[:3]
        verdicts[name] = (verdict, detail)
    for line in (d / "runs.log").read_text().splitlines():
        m = re.match(r"==== (\S+) \(exit", line)
        if m:
            current = m.group(1)
        elif current and "[run.hang]" in line and "launch failed" not in line:
            hangs[current].append(line)
    return verdicts, hangs


gpu, hang_lines = read_run(out)
jitter_gpu, jitter_hangs = read_run(pathlib.Path(sys.argv[3])) if len(sys.argv) > 3 else ({}, {})
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
    if verdict == "clean" and jitter_gpu.get(name, ("clean",))[0] != "clean":
        verdict, detail = jitter_gpu[name]
        hang_lines[name] = jitter_hangs.get(name, [])
        verdict += " (jitter)"
    failing = verdict != "clean"
    rejected = v["gates"] != "accepted"
    named = ""
    if verdict.startswith("hang") and "none of its waits ran out" in " ".join(hang_lines[name]) + detail:
        named = "deadline (no barrier)"
    elif verdict.startswith("hang"):
        gate_text = (gen / f"{name}.gate.txt").read_text()
        bars = set(re.findall(r"(?:on barrier|at named barrier) '(\w+)'", " ".join(hang_lines[name]) or detail))
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
