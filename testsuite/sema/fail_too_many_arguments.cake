# More positional arguments than parameters.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    p = lm.pipeline(2, 3)  # expected-error {{'lm.pipeline' takes at most 1 positional argument(s), 2 given}}
