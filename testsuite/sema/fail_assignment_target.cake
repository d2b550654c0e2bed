# Only names can be assigned.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    r.x = 1  # expected-error {{only names can be assigned in a schedule}}
