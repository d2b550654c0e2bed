# Syntax error: a keyword argument without a value.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_keyword_argument_value.cake:[[@LINE+1]]:9: error: unexpected ')'; expected an expression [syntax.unexpected-token]
f(stage=)
