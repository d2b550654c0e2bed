# Syntax error: an empty subscript.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_empty_subscript.cake:[[@LINE+1]]:7: error: unexpected ']'; expected an expression or ':' [syntax.unexpected-token]
x = a[]
