# Arguments of the right type but an unaccepted value.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(8, 8), dtype=lm.f32, swizzle="128b")  # expected-error {{argument 'swizzle' of 'pool.view' must be one of "none", "32B", "64B", "128B", got "128b"; did you mean '128B'?}}
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    x = lm.block_id(3)  # expected-error {{argument 'dim' of 'lm.block_id' must be 0, 1 or 2, got 3}}
    with r:
        lm.arrive(b, stage=0, per="block")  # expected-error {{argument 'per' of 'lm.arrive' must be one of "role", "warpgroup", "warp", "thread", got "block"}}
