# Syntax error: a binary operator with no right operand.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_empty_operand.cake:[[@LINE+1]]:10: error: unexpected ')'; expected an expression [syntax.unexpected-token]
x = (1 + )
