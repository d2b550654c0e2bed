# Every mandatory form of the CAKE IR surface (CAKE.md section 3), written
# exactly as the form table shows them, in one small Blackwell schedule:
# a TMA producer warp streams K tiles of A and B through a 3-stage ring and
# an MMA warp accumulates S = A . B^T in tensor memory.
@cake.schedule()
def mandatory_forms(lm, Q: LM.tma3d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(98304)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=3)
    b = pool.view(offset=49152, shape=(128, 64), dtype=lm.bf16, stage=3)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    p = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=1, pipeline=p)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(Q, coords=(0, 0, s), stage=s, barrier=full)
            b.tma_load(Q, coords=(0, 64, s), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.fence_proxy()
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.arrive(empty, stage=s)
