# Syntax error: a closing bracket with no opener.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_unmatched_close.cake:[[@LINE+1]]:9: error: unmatched ')' [syntax.unmatched-bracket]
x = f(1))
