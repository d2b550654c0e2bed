# Syntax error: with and nothing to enter.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_with_without_item.cake:[[@LINE+1]]:6: error: unexpected ':'; expected an expression [syntax.unexpected-token]
with :
    pass
