# Subscripts on values that cannot be indexed.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    x = r[0]  # expected-error {{the role 'r' cannot be indexed}}
    t = (1, 2)
    y = t[0:1]  # expected-error {{a slice cannot be indexed}}
    z = t[0, 1]  # expected-error {{a tuple with several indices cannot be indexed}}
