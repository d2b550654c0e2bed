# Syntax error: a with header without its colon.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_missing_colon_with.cake:[[@LINE+1]]:10: error: unexpected end of line; expected ',' or ':' [syntax.unexpected-token]
with load
    pass
