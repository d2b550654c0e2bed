# Syntax error: assignment to a literal.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_assign_to_literal.cake:[[@LINE+1]]:1: error: cannot assign to a literal [syntax.invalid-assignment-target]
1 = x
