#!/usr/bin/env python3
"""check_editor_formats.py DIAGS FILE LINE COL: each editor's pattern for
gcc-style messages finds FILE, LINE and COL in the first diagnostic of DIAGS.

The patterns are this test's renderings of what the tools document: VS Code's
`$gcc` problem matcher, vim's default 'errorformat' entry `%f:%l:%c: %m`, and
Emacs compilation-mode's `gnu` rule (file:line:col: severity: message)."""
import re
import sys

text = open(sys.argv[1]).read().splitlines()
want = (sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
patterns = {
    "vscode $gcc": r"^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$",
    "vim %f:%l:%c: %m": r"^([^:]+):(\d+):(\d+): (.*)$",
    "emacs gnu": r"^([^:\n]+):(\d+):(\d+): (?:(?:fatal )?error|warning|note|info)?:? ?(.*)$",
}
headers = [l for l in text if re.match(r"^[^ ].*:\d+:\d+: ", l)]
if not headers:
    sys.exit("no diagnostic lines found")
failed = False
for name, pat in patterns.items():
    m = re.match(pat, headers[0])
    got = (m.group(1), int(m.group(2)), int(m.group(3))) if m else None
    if not got or not got[0].endswith(want[0]) or got[1:] != want[1:]:
        print(f"{name}: expected {want}, got {got} from {headers[0]!r}")
        failed = True
sys.exit(1 if failed else 0)
