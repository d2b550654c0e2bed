# Syntax error: assignment to an arithmetic expression.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_assign_to_operator.cake:[[@LINE+1]]:1: error: cannot assign to an expression [syntax.invalid-assignment-target]
a + b = 3
