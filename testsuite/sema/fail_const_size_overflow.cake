# A view whose byte size overflows 64 bits.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(4611686018427387904, 4), dtype=lm.f32)  # expected-error {{the size in bytes of 'v' overflows 64 bits}}
