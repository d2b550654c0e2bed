# Constant arithmetic that overflows 64 bits.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    a = 9223372036854775807 + 1  # expected-error {{integer overflow in constant expression}}
    b = 2 ** 64  # expected-error {{integer overflow in constant expression}}
    c = -(-9223372036854775807 - 1)  # expected-error {{integer overflow in constant expression}}
    d = 3037000500 * 3037000500  # expected-error {{integer overflow in constant expression}}
