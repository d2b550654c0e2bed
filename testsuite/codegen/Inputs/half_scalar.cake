# A bf16 scalar parameter in fragment math (testsuite/codegen/half_scalar.test).
@cake.schedule(grid=(1,))
def scaled(lm, X: LM.tma2d, Y: LM.tma2d, s: LM.bf16, t: LM.f32):
    pool = lm.smem(17408)
    x_s = pool.view(offset=0, shape=(1, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    o_s = pool.view(offset=1024, shape=(64, 64), dtype=lm.f32)
    b = lm.barrier(count=1, prod=[math], cons=[math])
    with math:
        x_s.tma_load(X, coords=(0, 0), barrier=b)
        lm.wait(b, stage=0)
        v = lm.fill(v, 1.0)
        v = v * x_s.load() * s * t
        o_s.store(v)
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(Y, coords=(0, 0))
        lm.tma_store_wait()
