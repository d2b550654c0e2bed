# Constant tuple indexing out of range.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    t = (1, 2, 3)
    a = t[-1]
    b = t[3]  # expected-error {{index 3 is out of range for a tuple of 3 element(s)}}
