# Blocks adding their tiles into the caller's f32 tensor C (C += each
# block's part): the additions' order varies between launches.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, C: LM.tma2d[M, 64], M: LM.i32, S: LM.i32):
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(C, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
