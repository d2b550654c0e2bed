#!/usr/bin/env python3
"""Fails if an option shown by `cakec --help` is missing from man/cakec.1."""
import re
import sys

help_text = open(sys.argv[1]).read()
man = open(sys.argv[2]).read().replace("\\-", "-")
options = set(re.findall(r"(--[a-z][a-z0-9-]*)", help_text))
missing = sorted(o for o in options if o not in man)
for o in missing:
    print(f"error: option {o} from --help is not documented in man/cakec.1")
sys.exit(1 if missing else 0)
