# A warp listed twice in one role.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0, 1, 0])  # expected-error {{warp 0 is listed twice}}
