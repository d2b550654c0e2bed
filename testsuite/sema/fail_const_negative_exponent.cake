# Integer powers with negative exponents.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    a = 2 ** -1  # expected-error {{negative exponent in integer constant expression}}
