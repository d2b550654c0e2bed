# Syntax error: the first line of a file indented.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_first_line_indented.cake:[[@LINE+1]]:3: error: unexpected indentation [syntax.unexpected-indent]
  x = 1
