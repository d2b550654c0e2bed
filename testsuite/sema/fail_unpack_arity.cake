# Tuple unpacking with the wrong number of names.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    a, b = 1, 2
    c, d = (1, 2, 3)  # expected-error {{cannot unpack 3 values into 2 names}}
    e, f = 4  # expected-error {{cannot unpack the integer 4 into 2 names}}
