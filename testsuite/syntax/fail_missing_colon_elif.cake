# Syntax error: an elif header without its colon.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
if x:
    pass
# CHECK: fail_missing_colon_elif.cake:[[@LINE+1]]:7: error: expected ':' before end of line [syntax.missing-token]
elif y
    pass
