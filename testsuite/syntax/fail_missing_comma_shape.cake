# Syntax error: a shape tuple missing a comma.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_missing_comma_shape.cake:[[@LINE+1]]:26: error: unexpected number '64'; expected ')' [syntax.unexpected-token]
v = pool.view(shape=(128 64))
