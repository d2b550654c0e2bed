#!/usr/bin/env python3
"""check_sarif.py LOG SCHEMA: validates a SARIF log against the SARIF 2.1.0
JSON schema and checks that every result names a rule of the run."""
import json
import sys

import jsonschema

log = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
jsonschema.validate(log, schema)
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
for r in run["results"]:
    assert rules[r["ruleIndex"]]["id"] == r["ruleId"], r
print(f"valid SARIF: {len(run['results'])} result(s), {len(rules)} rules")
