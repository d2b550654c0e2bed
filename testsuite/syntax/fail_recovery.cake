# The parser recovers: independent errors on separate lines are each
# reported, and correct statements between them stay quiet.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
x = (1 + )
# CHECK: fail_recovery.cake:[[@LINE-1]]:10: error: unexpected ')'; expected an expression
y = 2
f(a b)
# CHECK: fail_recovery.cake:[[@LINE-1]]:5: error: unexpected name 'b'; expected ')'
def g(lm)
    pass
# CHECK: fail_recovery.cake:[[@LINE-2]]:10: error: unexpected end of line; expected '->' or ':'
z = 3 *
# CHECK: fail_recovery.cake:[[@LINE-1]]:8: error: unexpected end of line; expected an expression
with r:
    w = 1 1
# CHECK: fail_recovery.cake:[[@LINE-1]]:11: error: unexpected number '1'; expected end of line
