# A for loop over something other than lm.range.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        for s in (1, 2, 3):  # expected-error {{a 'for' loop must iterate over 'lm.range(...)'}}
            pass
