# Syntax error: two arguments without a comma.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_missing_comma_args.cake:[[@LINE+1]]:5: error: unexpected name 'b'; expected ')' [syntax.unexpected-token]
f(a b)
