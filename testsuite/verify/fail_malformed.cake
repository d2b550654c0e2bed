# RUN: not %cakec -verify -fsyntax-only %s 2>&1 | FileCheck %s
x = 1  # expected-error@ {{text}}
y = 2  # expected-error@+500 {{text}}
z = 3  # expected-warning text
w = 4  # expected-note {{open
v = 5  # expected-error 0 {{zero}}
# CHECK: fail_malformed.cake:2:10: error: malformed 'expected-error' directive: expected a line number after '@' [verify.malformed-directive]
# CHECK: fail_malformed.cake:3:10: error: malformed 'expected-error' directive: line 503 is outside the file
# CHECK: fail_malformed.cake:4:10: error: malformed 'expected-warning' directive: expected '{{[{][{]}}' after the directive
# CHECK: fail_malformed.cake:5:10: error: malformed 'expected-note' directive: missing '{{[}][}]}}' at the end of the text
# CHECK: fail_malformed.cake:6:10: error: malformed 'expected-error' directive: a count must be at least 1
