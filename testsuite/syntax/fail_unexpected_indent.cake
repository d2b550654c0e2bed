# Syntax error: an indented line at top level.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
x = 1
# CHECK: fail_unexpected_indent.cake:[[@LINE+1]]:5: error: unexpected indentation [syntax.unexpected-indent]
    y = 2
