# Syntax error: a string missing its closing quote.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_unterminated_string.cake:[[@LINE+1]]:23: error: string literal is missing its closing quote [syntax.unterminated-string]
v = pool.view(swizzle="128B)
