# A required argument left out.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    v = pool.view(offset=0, dtype=lm.f32)  # expected-error {{missing required argument 'shape' of 'pool.view'}}
    r = lm.role()  # expected-error {{missing required argument 'warps' of 'lm.role'}}
