# Syntax error: braces are not part of the language.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_brace_unsupported.cake:[[@LINE+1]]:5: error: unexpected '{'; expected an expression [syntax.unexpected-token]
x = {1: 2}
