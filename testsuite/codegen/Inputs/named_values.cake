# A ring whose stage index is a named value (named_values.test): `s = t - 1`
# is a Let statement, and s is a variable of each role's loop.
@cake.schedule(grid=(M // 128, N // 128))
def k(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(4 * 256 * 32 * 2 + 128 * 128 * 2)
    a_s = pool.view(offset=0, shape=(128, 32), dtype=lm.bf16, stage=4, swizzle="64B")
    b_s = pool.view(offset=4 * 128 * 32 * 2, shape=(128, 32), dtype=lm.bf16, stage=4, swizzle="64B")
    c_s = pool.view(offset=4 * 256 * 32 * 2, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0])
    math = lm.role(warps=[1, 2, 3, 4, 5, 6, 7, 8])
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=64, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    with load:
        for t in lm.range(1, K // 32 + 1):
            s = t - 1
            lm.wait(empty, stage=s)
            a_s.cp_async(A, coords=(s * 32, lm.block_id(0) * 128), stage=s, barrier=full)
            b_s.cp_async(B, coords=(s * 32, lm.block_id(1) * 128), stage=s, barrier=full)
    with math:
        for t in lm.range(1, K // 32 + 1):
            s = t - 1
            lm.wait(full, stage=s)
            lm.mma(acc, a_s[s], b_s[s].T, init=(s == 0))
            lm.arrive(empty, stage=s, per="warp")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * 128, lm.block_id(0) * 128))
