# Syntax error: assignment to a call.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_assign_to_call.cake:[[@LINE+1]]:1: error: cannot assign to a function call [syntax.invalid-assignment-target]
lm.smem(4) = x
