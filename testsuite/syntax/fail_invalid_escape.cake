# Syntax error: an unknown escape sequence.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_invalid_escape.cake:[[@LINE+1]]:7: error: unknown escape sequence '\q' in string literal [syntax.invalid-escape]
s = "a\qb"
