# A for loop binds one name.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        for i, j in lm.range(0, n):  # expected-error {{a 'for' loop binds exactly one name}}
            pass
