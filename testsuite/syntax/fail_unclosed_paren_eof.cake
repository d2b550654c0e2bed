# Syntax error: a parenthesis open at end of file.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_unclosed_paren_eof.cake:[[@LINE+1]]:6: error: '(' was never closed [syntax.unclosed-bracket]
x = f(1, 2
