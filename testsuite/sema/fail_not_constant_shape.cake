# A shape that depends on a kernel parameter.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(n, 8), dtype=lm.f32)  # expected-error {{argument 'shape' of 'pool.view' must be a compile-time constant}}
