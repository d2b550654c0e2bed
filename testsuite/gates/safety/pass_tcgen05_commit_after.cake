# Passing near-miss of fail_tcgen05_commit_order.cake: a persistent MMA warp
# commits each stage's release after the MMA that reads it and the tile's
# hand-off after the tile's last MMA (inside the tile loop, after the k
# loop); the epilogue hands the accumulator back with a plain arrive after
# its TMEM load, one arrival per warp (each warp's load returns to it).
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d[T, 64], B: LM.tma2d, O: LM.tma2d, T: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    c = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    free = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    with load:
        for t in lm.range(0, T):
            for s in lm.range(0, 4):
                lm.wait(empty, stage=t * 4 + s)
                a.tma_load(A, coords=(0, s * 64), stage=t * 4 + s, barrier=full)
                b.tma_load(B, coords=(0, s * 64), stage=t * 4 + s, barrier=full)
    with math:
        for t in lm.range(0, T):
            lm.wait(free, stage=t)
            for s in lm.range(0, 4):
                lm.wait(full, stage=t * 4 + s)
                lm.mma(acc, a[t * 4 + s], b[t * 4 + s], init=(s == 0))
                lm.commit(empty, stage=t * 4 + s)
            lm.commit(done, stage=t)
    with epi:
        for t in lm.range(0, T):
            lm.wait(done, stage=t)
            lm.tmem_load(out, acc)
            lm.arrive(free, stage=t, per="warp")
            res = lm.cast(out, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c.store(res)
            lm.fence_proxy()
            lm.role_sync()
            c.tma_store(O, coords=(0, t * 128))
        lm.tma_store_wait()
