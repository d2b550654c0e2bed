# Blackwell's TMA has the same 256-element box limit.
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)  # expected-note {{'pool' declared here}}
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 384), dtype=lm.bf16, stage=2)  # expected-error {{the TMA box of 'b' is 384 along dimension 1; the limit is 256}} expected-error {{view 'b' spans bytes [32768, 131072) of pool 'pool', which has 65536 bytes}}
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=p)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(A, coords=(0, s * 64), stage=s, barrier=full)
            b.tma_load(B, coords=(0, s * 64), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.mma(acc, a[s], b[s], init=(s == 0))  # expected-error {{'lm.mma' shapes disagree: the product is 128x384 but the accumulator 'acc' is 128x128}}
            lm.commit(empty, stage=s)
