# Syntax error: a non-ASCII character in code.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_invalid_char_unicode.cake:[[@LINE+1]]:7: error: invalid character '×' (U+00D7) in source [syntax.invalid-character]
x = 3 × 4
