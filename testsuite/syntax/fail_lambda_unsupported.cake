# Syntax error: a Python form outside the language.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_lambda_unsupported.cake:[[@LINE+1]]:11: error: unexpected ':'; expected end of line [syntax.unexpected-token]
x = lambda: 1
