# Every mandatory form of the CAKE IR surface (CAKE.md section 3), written
# exactly as the form table shows them, in one small Blackwell schedule:
# a TMA producer warp streams K tiles of A and B through a 3-stage ring, an
# MMA warp accumulates S = A . B in tensor memory, and an epilogue warpgroup
# converts the tile to bf16 and writes it to O with a TMA store. A and B
# come from two tensors (Q and K): a tensor is reached through one tensor map,
# so every copy of it uses one box. The MMA warp releases each stage with
# lm.commit, whose arrival comes when the tensor core has finished reading it
# (a plain lm.arrive would hand the slot back while tcgen05 may still read it).
# target: sm_100a
@cake.schedule()
def mandatory_forms(lm, Q: LM.tma3d, K: LM.tma3d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=3)
    b = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16, stage=3)
    c = pool.view(offset=98304, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(Q, coords=(0, 0, s), stage=s, barrier=full)
            b.tma_load(K, coords=(0, 0, s), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.fence_proxy()
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.commit(empty, stage=s)
        lm.commit(done, stage=0)
    with epi:
        lm.wait(done, stage=0)
        lm.tmem_load(out, acc)
        res = lm.cast(out, lm.bf16)
        c.store(res)
        lm.fence_proxy()
        lm.role_sync()
        c.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
