# RUN: %cakec -verify -fsyntax-only -Wno-no-schedule %s
# expected-no-diagnostics
x = 1
