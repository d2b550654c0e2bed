#!/usr/bin/env python3
"""Keeps the Operations section of docs/language.md equal to the op table.

    language_doc.py ops CAKEC DOC [--update]
        The section between the GENERATED markers must equal
        `CAKEC --list-ops --list-format=markdown`; --update rewrites it.

Exit status 0 when the document agrees, 1 otherwise.
(tools/check_language_doc.py checks the document's code blocks.)
"""
import subprocess
import sys

BEGIN = "<!-- BEGIN GENERATED: cakec --list-ops --list-format=markdown -->"
END = "<!-- END GENERATED -->"


def ops(cakec: str, doc: str, update: bool) -> int:
    text = open(doc, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"{doc}: the markers of the generated Operations section are missing", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    want = subprocess.run([cakec, "--list-ops", "--list-format=markdown"], check=True,
                          capture_output=True, text=True).stdout
    want = "\n" + want.rstrip("\n") + "\n"
    if body == want:
        return 0
    if update:
        with open(doc, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + want + END + tail)
        print(f"{doc}: Operations section regenerated")
        return 0
    print(f"{doc}: the Operations section differs from `cakec --list-ops --list-format=markdown`;"
          f" run: python3 tools/language_doc.py ops {cakec} {doc} --update", file=sys.stderr)
    return 1


def main() -> int:
    if len(sys.argv) >= 4 and sys.argv[1] == "ops":
        return ops(sys.argv[2], sys.argv[3], "--update" in sys.argv[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
