# Broken variants of pass_tk_one_loop_alias.cake: the guarded finish wait
# must come before every refill of the slot c_s aliases (k = 3 and k = 7).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# Part 1: the wait under `if k == 4`: the refill at k = 3 runs before it.
@cake.schedule(grid=(lm.sm_count(),))
def k1(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32):
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
                if k == 4:
                    lm.wait(fin, stage=t)
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)  # expected-error {{role 'load' writes 'a_s' at stage 't * 8 + k' while role 'math' may still be writing 'c_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}} expected-error {{role 'load' writes 'a_s' at stage 't * 8 + k' while role 'math' may still be reading 'c_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
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
            c_s.store(out)  # expected-note {{'c_s' written here}}
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tile % (N // 128) * 128, tile // (N // 128) * 128))  # expected-note {{'c_s' read here; the read runs on after the operation is issued}}
            lm.tma_store_wait()
            lm.role_sync()
            lm.arrive(fin, stage=t, per="warp")
# -----
# Part 2: the wait after the copies of its iteration: the refill at k = 3
# is issued before it.
@cake.schedule(grid=(lm.sm_count(),))
def k2(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32):
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
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)  # expected-error {{role 'load' writes 'a_s' at stage 't * 8 + k' while role 'math' may still be writing 'c_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}} expected-error {{role 'load' writes 'a_s' at stage 't * 8 + k' while role 'math' may still be reading 'c_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
                b_s.tma_load(B, coords=(k * 64, tile % (N // 128) * 128), stage=t * 8 + k, barrier=full)
                if k == 3:
                    lm.wait(fin, stage=t)
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
            c_s.store(out)  # expected-note {{'c_s' written here}}
            lm.fence_proxy()
            lm.role_sync()
            c_s.tma_store(C, coords=(tile % (N // 128) * 128, tile // (N // 128) * 128))  # expected-note {{'c_s' read here; the read runs on after the operation is issued}}
            lm.tma_store_wait()
            lm.role_sync()
            lm.arrive(fin, stage=t, per="warp")
