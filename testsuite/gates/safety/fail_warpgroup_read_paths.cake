# safety.warpgroup-read along every path from a store to the MMA that reads
# it (found by review, helper-42, 2026-12-07: each of these was accepted,
# since the check kept one store per view in program order and took any role
# sync as clearing it): a transposed store into another stage of the view
# masked by a later plain store (staged); a store into an alias of the view
# read (alias); a store in one branch masked by the other branch's
# (branch); a role sync in one branch only (sync_in_branch); a store after
# the read in a loop around both, read in the next iteration
# (next_iteration). Near misses: pass_warpgroup_read_paths.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(n,))
def staged(lm, V: LM.tma2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    p_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B", stage=2)
    v_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=40960, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        p_s.store(s, stage=1, transpose=True)  # expected-note {{'p_s' written here}}
        p_s.store(s, stage=0)
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        lm.mma(o, p_s[1], v_s.T, init=True)  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'p_s' ('mma') right after the role's threads wrote it, but the transposed store put each warp's elements in other warps' rows; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def alias(lm, V: LM.tma2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    p_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    v_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=40960, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        p_s.store(s)
        lm.role_sync()
        x_s.store(s, transpose=True)  # expected-note {{'x_s' written here}}
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        lm.mma(o, p_s, v_s.T, init=True)  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'p_s' ('mma') right after the role's threads wrote it, but the transposed store put each warp's elements in other warps' rows; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def branch(lm, V: LM.tma2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    p_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    v_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=40960, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        if lm.block_id(0) == 0:
            p_s.store(s, transpose=True)  # expected-note {{'p_s' written here}}
        else:
            lm.role_sync()
            p_s.store(s)
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        lm.mma(o, p_s, v_s.T, init=True)  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'p_s' ('mma') right after the role's threads wrote it, but the transposed store put each warp's elements in other warps' rows; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def sync_in_branch(lm, V: LM.tma2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    p_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    v_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=40960, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        p_s.store(s, transpose=True)  # expected-note {{'p_s' written here}}
        lm.fence_proxy()
        if lm.block_id(0) == 0:
            lm.role_sync()
        lm.wait(ready, stage=0)
        lm.mma(o, p_s, v_s.T, init=True)  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'p_s' ('mma') right after the role's threads wrote it, but the transposed store put each warp's elements in other warps' rows; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def next_iteration(lm, V: LM.tma2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    p_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    v_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=40960, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        p_s.store(s)
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        for j in lm.range(0, 4):
            lm.mma(o, p_s, v_s.T, init=(j == 0))  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'p_s' ('mma') right after the role's threads wrote it, but the transposed store put each warp's elements in other warps' rows; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' after the fence}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.role_sync()
            p_s.store(s, transpose=True)  # expected-note {{'p_s' written here}}
            lm.fence_proxy()
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()
