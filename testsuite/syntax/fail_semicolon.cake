# Syntax error: statements joined by a semicolon.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_semicolon.cake:[[@LINE+1]]:6: error: unexpected ';'; expected end of line [syntax.unexpected-token]
x = 1; y = 2
