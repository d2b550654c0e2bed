# Syntax error: an integer beyond 64 bits.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_integer_too_large.cake:[[@LINE+1]]:5: error: integer literal '18446744073709551616' does not fit in 64 bits [syntax.integer-too-large]
x = 18446744073709551616
