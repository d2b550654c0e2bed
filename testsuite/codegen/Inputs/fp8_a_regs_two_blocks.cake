# wgmma with an fp8 A from registers where one warpgroup holds two m64
# blocks of it (a 128 x 128 e4m3 P, cast from an f32 tile, times B^T):
# the A registers of block 1 start at pair 32 of the fragment
# (testsuite/codegen/fp8_view_store.test).
@cake.schedule(grid=(M // 128,))
def fp8_a_regs_two_blocks(lm, S: LM.tensor2d, B: LM.tma2d, Y: LM.tensor2d, M: LM.i32):
    pool = lm.smem(8192)
    b_s = pool.view(offset=0, shape=(64, 128), dtype=lm.e4m3, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=1)
    acc = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    with math:
        r0 = lm.block_id(0) * 128
        b_s.tma_load(B, coords=(0, 0), barrier=got)
        s = lm.load_tile(S, coords=(0, r0), shape=(128, 128), dtype=lm.f32, layout="accumulator")
        p = lm.cast(s, lm.e4m3)
        lm.wait(got, stage=0)
        lm.mma(acc, p, b_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.store_tile(Y, coords=(0, r0), src=acc)
