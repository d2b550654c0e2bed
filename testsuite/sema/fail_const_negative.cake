# Offsets and warp indices that must not be negative.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    v = pool.view(offset=-64, shape=(8,), dtype=lm.f32)  # expected-error {{a view offset must not be negative, got -64}}
    r = lm.role(warps=[-1])  # expected-error {{a warp index must not be negative, got -1}}
