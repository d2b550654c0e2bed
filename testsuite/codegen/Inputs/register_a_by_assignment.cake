# A bf16 fragment named by plain assignment, then wgmma's register A operand
# (register_a_derived.test).
@cake.schedule()
def repro(lm, B: LM.tma2d, C: LM.tma2d, n: LM.i32):
    pool = lm.smem(16384 + 16384)
    b_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    load = lm.role(warps=[4])
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        b_s.tma_load(B, coords=(0, 0), barrier=ready)
    with math:
        o = lm.fill(o, 1.0)
        lm.wait(ready, stage=0)
        p16 = lm.cast(o, lm.bf16)
        lm.mma(o, p16, b_s)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        c_s.store(o)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
