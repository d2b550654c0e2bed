# Empty warp and role lists.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[])  # expected-error {{the 'warps' list must not be empty}}
    q = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[], cons=[q])  # expected-error {{the 'prod' list must not be empty}}
