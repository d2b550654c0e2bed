# Syntax error: else with no if.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_stray_else.cake:[[@LINE+1]]:1: error: unexpected keyword 'else'; expected a statement or end of line [syntax.unexpected-token]
else:
    pass
