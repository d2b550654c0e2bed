# fp8 register tiles stored into shared memory (FA3's P . V in fp8, with P
# taken through shared memory): each block reads a 64 x 128 f32 tile of S in
# the accumulator layout, converts it to e4m3 (P), stores P into a 128B-
# swizzled view and P^T into a 64B-swizzled one, multiplies P by B^T with
# wgmma (P the A operand, K-major, from the view) and writes Y = P . B^T
# (f32), P and P^T (e4m3, TMA) back (testsuite/codegen/fp8_view_store.test;
# run on the GPU by harness/fp8/fp8_store_check.py). With -DA_REGS=True the
# wgmma takes P from registers instead (wgmma's 8-bit A fragment, gathered
# from the accumulator layout by the lowering).
A_REGS = False

@cake.schedule(grid=(M // 64,))
def fp8_view_store(lm, S: LM.tensor2d, B: LM.tma2d, P8: LM.tma2d, PT8: LM.tma2d, Y: LM.tensor2d, M: LM.i32):
    pool = lm.smem(3 * 8192)
    b_s = pool.view(offset=0, shape=(64, 128), dtype=lm.e4m3, swizzle="128B")
    p_s = pool.view(offset=8192, shape=(64, 128), dtype=lm.e4m3, swizzle="128B")
    pt_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.e4m3, swizzle="64B")
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=1)
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        r0 = lm.block_id(0) * 64
        b_s.tma_load(B, coords=(0, 0), barrier=got)
        s = lm.load_tile(S, coords=(0, r0), shape=(64, 128), dtype=lm.f32, layout="accumulator")
        p = lm.cast(s, lm.e4m3)
        p_s.store(p)
        pt_s.store(p, transpose=True)
        lm.fence_proxy()
        lm.role_sync()
        lm.wait(got, stage=0)
        if A_REGS:
            lm.mma(acc, p, b_s.T, init=True)
        else:
            lm.mma(acc, p_s, b_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.store_tile(Y, coords=(0, r0), src=acc)
        p_s.tma_store(P8, coords=(0, r0))
        pt_s.tma_store(PT8, coords=(r0, 0))
        lm.tma_store_wait()
