# lm.range only as a for loop's iterator.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    x = lm.range(0, n)  # expected-error {{'lm.range' can only be the iterator of a 'for' loop}}
