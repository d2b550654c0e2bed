# An expected diagnostic that does not occur fails the run.
# RUN: not %cakec -verify -fsyntax-only -Wno-missing-schedule %s 2>&1 | FileCheck %s --implicit-check-not=error:
x = 1  # expected-error {{something that never happens}}
# CHECK: fail_not_seen.cake:3:10: error: expected error on line 3 not seen: {{[{][{]}}something that never happens{{[}][}]}} [verify.expected-not-seen]
