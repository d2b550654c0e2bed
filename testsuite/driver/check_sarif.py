#!/usr/bin/env python3
"""check_sarif.py LOG [SCHEMA]: checks a SARIF log's structure (every result
names a rule of the run by id and index) and, given the SARIF 2.1.0 JSON
schema, validates the log against it."""
import json
import sys

log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0", log.get("version")
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
for r in run["results"]:
    assert rules[r["ruleIndex"]]["id"] == r["ruleId"], r
    assert r["level"] in ("error", "warning", "note"), r
if len(sys.argv) > 2:
    import jsonschema
    jsonschema.validate(log, json.load(open(sys.argv[2])))
print(f"SARIF ok: {len(run['results'])} result(s), {len(rules)} rules")
