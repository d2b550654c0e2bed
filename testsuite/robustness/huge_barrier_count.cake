# Regression (found by FuzzPipeline, UBSan: signed overflow in the stage-sequence
# check): a barrier count at the edge of int64 gives diagnostics, never overflow.
# The sanitizer build halts on undefined behaviour, so exit status 1 (errors
# reported) is the proof.
# RUN: %expect-exit 1 %cakec -fsyntax-only --target=sm_100a %s
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    p = lm.pipeline(stages=2)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    b = pool.view(offset=31, shape=(64, 128), dtype=lm.bf16, stage=2)
    full = lm.barrier(count=9223372036854775807, prod=[load], cons=[math], pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=p)
    with load:
        for s in lm.range(1, n):
            lm.wait(empty, stage=s)
            a.tma_load(A, coords=(0, s * 64), stage=s, barrier=full)
            lm.role_sync()
            b.tma_load(B, coords=(0, s * 64), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.role_sync()
            lm.commit(empty, stage=s)
