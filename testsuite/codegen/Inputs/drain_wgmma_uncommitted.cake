# A wgmma never committed into a group, never waited for: the lowering
# commits and waits for it before the role ends (drain_role_end.test).
@cake.schedule()
def drain_uncommitted(lm, A: LM.tma2d, B: LM.tma2d):
    pool = lm.smem(32768)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        a_s.tma_load(A, coords=(0, 0), barrier=ready)
        b_s.tma_load(B, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(acc, a_s, b_s.T, init=True)
