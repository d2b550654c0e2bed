# Syntax error: a closing bracket of the wrong kind.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_mismatched_close.cake:[[@LINE+1]]:10: error: closing ']' does not match opening '(' [syntax.mismatched-bracket]
x = (1, 2]
