#!/usr/bin/env python3
"""Prints the fenced code block of a language from README.md, so that tests
run the build rules exactly as the README writes them.

    readme_snippet.py README.md make|cmake [N]   (N: the Nth such block, 1 default)
"""
import sys


def main() -> int:
    path, lang = sys.argv[1], sys.argv[2]
    want = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    blocks, cur = [], None
    for line in open(path, encoding="utf-8"):
        if cur is None and line.strip() == "```" + lang:
            cur = []
        elif cur is not None and line.strip() == "```":
            blocks.append("".join(cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    if len(blocks) < want:
        print(f"{path}: no {lang} block number {want}", file=sys.stderr)
        return 1
    sys.stdout.write(blocks[want - 1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
