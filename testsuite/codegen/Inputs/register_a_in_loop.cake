# A bf16 fragment first assigned inside a loop, then wgmma's register A
# operand in the same iteration (register_a_derived.test).
@cake.schedule()
def k(lm, Q: LM.tma2d, V: LM.tma2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(49152)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    v_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    o_s = pool.view(offset=40960, shape=(64, 64), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)
            v_s.tma_load(V, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        o = lm.fill(o, 0.0)
        for j in lm.range(0, n):
            p16 = lm.cast(lm.exp2(o), lm.bf16)
            lm.wait(full, stage=j)
            lm.mma(o, p16, v_s[j])
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=j)
        out = lm.cast(o, lm.bf16)
        o_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
