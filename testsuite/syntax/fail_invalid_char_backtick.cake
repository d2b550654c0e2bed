# Syntax error: a backtick.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_invalid_char_backtick.cake:[[@LINE+2]]:5: error: invalid character '`' (U+0060) in source [syntax.invalid-character]
# CHECK: fail_invalid_char_backtick.cake:[[@LINE+1]]:7: error: invalid character '`' (U+0060) in source [syntax.invalid-character]
x = `y`
