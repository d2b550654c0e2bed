# Syntax error: an operator at the end of a line.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_dangling_operator.cake:[[@LINE+1]]:8: error: unexpected end of line; expected an expression [syntax.unexpected-token]
x = 1 *
