# Division and modulo by a constant zero.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    a = 4 // 0  # expected-error {{division by zero in constant expression}}
    b = 4 % (2 - 2)  # expected-error {{division by zero in constant expression}}
    c = n // 0  # expected-error {{division by zero in constant expression}}
