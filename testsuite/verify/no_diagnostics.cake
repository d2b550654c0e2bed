# RUN: %cakec -verify -fsyntax-only %s
# expected-no-diagnostics
x = 1
