# A diagnostic nobody expected fails the run.
# RUN: not %cakec -verify -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# expected-error@+1 {{unexpected ')'}}
x = (1 + )
y = 1 $ 2
# CHECK: fail_seen_not_expected.cake:5:7: error: error seen but not expected: invalid character '$' (U+0024) in source [verify.seen-not-expected]
