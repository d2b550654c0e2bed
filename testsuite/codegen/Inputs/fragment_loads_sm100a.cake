# A tile loaded into tcgen05's lanes layout (one row per thread), through a
# 128B swizzle (testsuite/codegen/fragment_loads.test).
@cake.schedule()
def k(lm, X: LM.tensor2d[128, 64], Y: LM.tensor2d[128, 64]):
    pool = lm.smem(65536)
    x_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    y_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=128)
    with math:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        y = lm.cast(x_s.load(), lm.f32) * 2.0
        y_s.store(y)
        lm.role_sync()
        y_s.copy_to(Y, coords=(0, 0))
