# RUN: not %cakec -verify -fsyntax-only %s 2>&1 | FileCheck %s
# A file with no directive at all is an error in -verify mode.
x = 1
# CHECK: cakec: error: no '{{e}}xpected-...' directives found; use '{{e}}xpected-no-diagnostics' if none are expected [verify.no-directives]
