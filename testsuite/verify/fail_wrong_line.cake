# A matching message on the wrong line is both unexpected and not seen.
# RUN: not %cakec -verify -fsyntax-only %s 2>&1 | FileCheck %s
# expected-error@+2 {{unmatched ')'}}
x = f(1))
y = 2
# CHECK-DAG: fail_wrong_line.cake:3:3: error: expected error on line 5 not seen
# CHECK-DAG: fail_wrong_line.cake:4:9: error: error seen but not expected: unmatched ')'
