# pass_tk_one_loop_finish_wait.cake with the finish wait under `if k >= 3`:
# it runs in five iterations of the k loop, so its stage t repeats.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32):
    pool = lm.smem(163840)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    a_s = pool.view(offset=65536, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    c_s = pool.view(offset=131072, shape=(128, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    fin = lm.barrier(count=1, prod=[math], cons=[load], init_count=8, credits=1)  # expected-note {{barrier 'fin' declared here}}
    tiles = M // 128 * (N // 128)
    my_tiles = (tiles - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    with load:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k >= 3:
                    lm.wait(fin, stage=t)  # expected-error {{role 'load' uses barrier 'fin' at stage 't', which is not its running count of uses (0, 1, 2, ...): it repeats in every iteration of the inner loop over 'k'}} expected-error {{cannot prove that barrier 'fin' is signalled as often as it is awaited: role 'math' signals it in range(0, my_tiles, 1) and role 'load' waits on it in range(0, my_tiles, 1)range(0, 8, 1)}}
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
