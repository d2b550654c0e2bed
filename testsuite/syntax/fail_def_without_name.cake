# Syntax error: def without a function name.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_def_without_name.cake:[[@LINE+1]]:5: error: unexpected '('; expected a name [syntax.unexpected-token]
def (lm):
    pass
