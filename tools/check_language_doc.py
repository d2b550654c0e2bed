#!/usr/bin/env python3
"""Checks the code blocks of docs/language.md against the compiler.

  check_language_doc.py [--cakec PATH] [--root DIR] [--doc FILE] [--lower]

- Every ```cake block is a complete file: `cakec -fsyntax-only` must accept it
  with no output at all (no warning). The compiler reads the target from the
  block's own `# target:` comment (sm_90a without one). With --lower, blocks
  for targets that have a CUDA lowering are also lowered (`-o x.cu`).
- Every ```cake-error block must be rejected (exit status 1, not an internal
  error). If the next block is ```text, it must be exactly what cakec prints
  for the file, compiled under the name its first line shows
  (`name.cake:LINE:COL: error: ...`).
- A ```text block that starts with `barrier protocols of NAME:` must appear in
  the `--emit=ir` output of the nearest ```cake block before it that defines
  NAME.
- ```cake-fragment blocks are not compiled.

Blocks are compiled from --root (the repository) with `-I ROOT`, so that
`from stdlib.hopper import ...` resolves. Exit status 0 when every block
passes, 1 otherwise. (tools/language_doc.py keeps the Operations section.)"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\S*)\s*$")


def lowered_targets(cakec):
    """Targets with a CUDA lowering, from `cakec --list-targets`."""
    out = subprocess.run([cakec, "--list-targets"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.startswith("sm_") and "lowered: yes" in line}


def blocks(text):
    """(info string, body, first line number) of each fenced block, in order."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        info, start, body = m.group(1), i + 1, []
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise SystemExit(f"line {start}: unterminated ``` block")
        out.append((info, "\n".join(body) + "\n", start))
        i += 1
    return out


def stated_target(src):
    """The target of the leading comment block, as the driver reads it."""
    for line in src.split("\n"):
        if not line.startswith("#"):
            break
        if line.startswith("# target:"):
            return line[len("# target:"):].strip()
    return "sm_90a"


def run(cakec, root, args, cwd):
    p = subprocess.run([cakec, "--color=never", "-I", root] + args, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(here), help="the repository root (default: ..)")
    ap.add_argument("--cakec", default=None, help="the compiler (default: $CAKEC or ROOT/build/bin/cakec)")
    ap.add_argument("--doc", default=None, help="the document (default: ROOT/docs/language.md)")
    ap.add_argument("--lower", action="store_true", help="also lower each cake block whose target has a lowering")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    cakec = os.path.abspath(a.cakec or os.environ.get("CAKEC") or os.path.join(root, "build", "bin", "cakec"))
    doc = a.doc or os.path.join(root, "docs", "language.md")
    text = open(doc, encoding="utf-8").read()
    failures, counts = [], {}
    lowered = lowered_targets(cakec) if a.lower else set()

    bl = blocks(text)
    with tempfile.TemporaryDirectory() as tmp:
        for n, (info, body, line) in enumerate(bl):
            counts[info] = counts.get(info, 0) + 1
            where = f"{os.path.basename(doc)}:{line}"
            if info == "cake":
                path = os.path.join(tmp, f"block_{line}.cake")
                open(path, "w", encoding="utf-8").write(body)
                rc, out = run(cakec, root, ["-fsyntax-only", path], root)
                if rc != 0 or out.strip():
                    failures.append(f"{where}: cake block does not compile cleanly (exit {rc}):\n{out}")
                elif a.lower and stated_target(body) in lowered:
                    rc, out = run(cakec, root, [path, "-o", os.path.join(tmp, f"block_{line}.cu")], root)
                    if rc != 0 or out.strip():
                        failures.append(f"{where}: cake block does not lower (exit {rc}):\n{out}")
            elif info == "cake-error":
                expected = None
                name = f"block_{line}.cake"
                if n + 1 < len(bl) and bl[n + 1][0] == "text":
                    expected = bl[n + 1][1]
                    m = re.match(r"([\w.-]+\.cake):\d+:\d+: ", expected)
                    if m:
                        name = m.group(1)
                sub = os.path.join(tmp, f"err_{line}")
                os.makedirs(sub)
                open(os.path.join(sub, name), "w", encoding="utf-8").write(body)
                rc, out = run(cakec, root, ["-fsyntax-only", name], sub)
                if rc != 1:
                    failures.append(f"{where}: cake-error block should fail with exit status 1, got {rc}:\n{out}")
                elif expected is None:
                    failures.append(f"{where}: a cake-error block needs a ```text block after it")
                elif out.rstrip("\n") != expected.rstrip("\n"):
                    failures.append(f"{where}: the text block after this cake-error block is not what cakec prints; "
                                    f"cakec prints:\n{out}")
            elif info == "text" and body.startswith("barrier protocols of "):
                kernel = body.split("\n", 1)[0][len("barrier protocols of "):].rstrip(":")
                source = next((b for i2, b, _ in reversed(bl[:n]) if i2 == "cake" and f"def {kernel}(" in b), None)
                if source is None:
                    failures.append(f"{where}: no cake block before this one defines '{kernel}'")
                    continue
                path = os.path.join(tmp, f"ir_{line}.cake")
                open(path, "w", encoding="utf-8").write(source)
                rc, out = run(cakec, root, ["--emit=ir", path], root)
                if rc != 0 or body.strip() not in out:
                    failures.append(f"{where}: this excerpt is not in the --emit=ir output of '{kernel}':\n{out}")
            elif info not in ("cake-fragment", "text", "sh", "c", "make", "cmake"):
                failures.append(f"{where}: unknown info string '{info}'")

    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    print(f"{len(bl)} blocks ({summary}); {len(failures)} failure(s)")
    if counts.get("cake", 0) == 0:
        print("FAIL no cake blocks", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
