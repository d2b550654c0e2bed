# Syntax error: a decorator not followed by def.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
@cake.schedule()
# CHECK: fail_decorator_without_def.cake:[[@LINE+1]]:1: error: unexpected name 'x'; expected 'def' or '@' [syntax.unexpected-token]
x = 1
