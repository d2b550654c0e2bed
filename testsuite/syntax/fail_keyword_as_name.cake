# Syntax error: a keyword used as a variable.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_keyword_as_name.cake:[[@LINE+1]]:5: error: unexpected '='; expected an expression [syntax.unexpected-token]
for = 3
