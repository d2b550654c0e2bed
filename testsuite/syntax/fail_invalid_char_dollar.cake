# Syntax error: a character outside the language.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_invalid_char_dollar.cake:[[@LINE+1]]:7: error: invalid character '$' (U+0024) in source [syntax.invalid-character]
x = 3 $ 4
