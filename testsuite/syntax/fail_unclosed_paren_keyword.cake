# Syntax error: a parenthesis left open before the next statement.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_unclosed_paren_keyword.cake:[[@LINE+1]]:15: error: '(' was never closed [syntax.unclosed-bracket]
@cake.schedule(
def f(lm):
    pass
