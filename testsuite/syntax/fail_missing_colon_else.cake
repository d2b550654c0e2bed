# Syntax error: an else without its colon.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
if x:
    pass
# CHECK: fail_missing_colon_else.cake:[[@LINE+1]]:5: error: expected ':' before end of line [syntax.missing-token]
else
    pass
