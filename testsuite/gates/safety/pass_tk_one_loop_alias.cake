# ThunderKittens' one-loop finish wait with the finish block aliasing the
# ring (issue 34, reproduction r5): c_s covers slot 3 of a_s, which the
# producer refills at k = 3 and k = 7; the wait on fin under `if k == 3`
# comes before both in each tile, so the epilogue's writes and TMA store of
# c_s are ordered before the refills. Broken variants:
# fail_tk_one_loop_alias.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32):
    pool = lm.smem(147456)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    a_s = pool.view(offset=65536, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    c_s = pool.view(offset=114688, shape=(128, 128), dtype=lm.bf16, alias=True)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    fin = lm.barrier(count=1, prod=[math], cons=[load], init_count=8, credits=1)
    tiles = M // 128 * (N // 128)
    my_tiles = (tiles - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    with load:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, tile % (N // 128) * 128), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                lm.mma(acc, a_s[t * 8 + k], b_s[t * 8 + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            out = lm.cast(acc, lm.bf16)
            lm.role_sync()
            c_s.store(out)
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tile % (N // 128) * 128, tile // (N // 128) * 128))
            lm.tma_store_wait()
            lm.role_sync()
            lm.arrive(fin, stage=t, per="warp")
