# Syntax error: an if header without its colon.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_missing_colon_if.cake:[[@LINE+1]]:10: error: expected ':' before end of line [syntax.missing-token]
if x == 1
    pass
