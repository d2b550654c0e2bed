# Syntax error: a dedent to no outer level.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
def f(lm):
    if a:
        pass
# CHECK: fail_inconsistent_dedent.cake:[[@LINE+1]]:3: error: unindent to column 3 does not match any outer indentation level [syntax.inconsistent-dedent]
  x = 1
