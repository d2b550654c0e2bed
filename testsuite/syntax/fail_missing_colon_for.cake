# Syntax error: a for header without its colon.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_missing_colon_for.cake:[[@LINE+1]]:24: error: expected ':' before end of line [syntax.missing-token]
for s in lm.range(0, n)
    pass
