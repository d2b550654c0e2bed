# RUN: %cakec -verify -fsyntax-only -Wno-missing-schedule %s
# expected-no-diagnostics
x = 1
