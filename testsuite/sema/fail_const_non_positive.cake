# Sizes and counts that must be positive.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(0)  # expected-error {{the pool size must be positive, got 0}}
    p = lm.pipeline(stages=-2)  # expected-error {{a stage count must be positive, got -2}}
    big = lm.smem(4096)
    v = big.view(offset=0, shape=(8, 0), dtype=lm.f32)  # expected-error {{dimension 1 of 'shape' must be positive, got 0}}
    r = lm.role(warps=[0])
    b = lm.barrier(count=0, prod=[r], cons=[r])  # expected-error {{a barrier count must be positive, got 0}}
    with r:
        for s in lm.range(0, n, 0):  # expected-error {{the loop step must be positive, got 0}}
            pass
