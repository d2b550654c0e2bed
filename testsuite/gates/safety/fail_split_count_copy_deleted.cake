# One of two copies of a stage deleted across a split running count (issue
# 34): ThunderKittens' finish block splits each tile's k loop at the finish
# wait (range(0, 3), range(3, 8)) and both halves load a_s and b_s onto
# 'full'. With b_s's copy gone from one half, 'full' still completes (its
# transaction bytes are derived from the copies that remain) and the MMA
# reads b_s's slot from an earlier lap: safety.stage-unwritten, at the
# half that lost the copy. Near-miss: pass_split_count_copies.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# Part 1: b_s's copy deleted from the second half.
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
            for k in lm.range(0, 3):
                lm.wait(empty, stage=t * 8 + k)
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, tile % (N // 128) * 128), stage=t * 8 + k, barrier=full)
            lm.wait(fin, stage=t)
            for k in lm.range(3, 8):
                lm.wait(empty, stage=t * 8 + k)
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)  # expected-error {{role 'load' signals 'full' at stage 't * 8 + k' without writing 'b_s' at that stage, which role 'math' reads after each wait on 'full': that slot still holds an earlier lap's data}}
    with math:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                lm.mma(acc, a_s[t * 8 + k], b_s[t * 8 + k].T, init=(k == 0))  # expected-note {{'b_s' read here}}
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
# -----
# Part 2: a_s's copy deleted from the first half (the error names the copy
# left in it).
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
            for k in lm.range(0, 3):
                lm.wait(empty, stage=t * 8 + k)
                b_s.tma_load(B, coords=(k * 64, tile % (N // 128) * 128), stage=t * 8 + k, barrier=full)  # expected-error {{role 'load' signals 'full' at stage 't * 8 + k' without writing 'a_s' at that stage, which role 'math' reads after each wait on 'full': that slot still holds an earlier lap's data}}
            lm.wait(fin, stage=t)
            for k in lm.range(3, 8):
                lm.wait(empty, stage=t * 8 + k)
                a_s.tma_load(A, coords=(k * 64, tile // (N // 128) * 128), stage=t * 8 + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, tile % (N // 128) * 128), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, my_tiles):
            tile = lm.block_id(0) + t * lm.num_blocks(0)
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)
                lm.mma(acc, a_s[t * 8 + k], b_s[t * 8 + k].T, init=(k == 0))  # expected-note {{'a_s' read here}}
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
# -----
# Part 3: a peeled first tile step loads only a_s; the loop after it loads
# both.
@cake.schedule()
def k3(lm, A: LM.tma2d, B: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        lm.wait(empty, stage=0)
        a_s.tma_load(A, coords=(0, 0), stage=0, barrier=full)  # expected-error {{role 'load' signals 'full' at stage '0' without writing 'b_s' at that stage, which role 'math' reads after each wait on 'full': that slot still holds an earlier lap's data}}
        for k in lm.range(1, 8):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, 8):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-note {{'b_s' read here}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
