# with takes exactly one role.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    r = lm.role(warps=[0])
    q = lm.role(warps=[1])
    with pool:  # expected-error {{'with' takes a single role, not the pool 'pool'}}
        pass
    with r, q:  # expected-error {{'with' takes a single role, not several roles at once}}
        pass
