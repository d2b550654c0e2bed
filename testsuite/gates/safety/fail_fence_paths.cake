# safety.missing-proxy-fence and safety.missing-role-sync along every path
# from a generic store to the async-proxy read (found 2026-12-07 beside the
# review of safety.warpgroup-read: each was accepted, since the checks kept
# the stores in program order and took any fence or role sync as clearing
# them): a fence in one branch only (fence_in_branch); a role sync in one
# branch only (sync_in_branch); a store at the end of a loop's iteration
# read by the TMA store at the top of the next with no fence
# (next_iteration), or with the role sync before the fence
# (sync_before_fence_next_iteration: a sync publishes only fenced writes);
# a fence after a cp_async but before the wait at which its writes land
# (cp_async_fence_before_wait; found by review, helper-43: accepted before);
# a fence in two branches of an if/elif with no else (fence_missing_else)
# and in a loop that may run no iteration (fence_in_loop_maybe_empty); a
# fence under `if j > 0:` after the loop's store, the loop then left after
# its first iteration (fence_after_first_then_exit: a path round the back
# edge takes the branch, but the loop may end after one iteration).
# Near misses: pass_fence_paths.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(n,))
def fence_in_branch(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)  # expected-note {{'o_s' written here}}
        if lm.block_id(0) == 0:
            lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'o_s' with generic-proxy stores, then reads it through the async proxy ('tma_store') without 'lm.fence_proxy()' in between}}
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def sync_in_branch(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)  # expected-note {{'o_s' written here}}
        lm.fence_proxy()
        if lm.block_id(0) == 0:
            lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))  # expected-error {{one elected thread of role 'math' reads 'o_s' ('tma_store') right after all its threads wrote it; add 'lm.role_sync()' after the fence}}
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def next_iteration(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        lm.fence_proxy()
        lm.role_sync()
        for j in lm.range(0, 4):
            o_s.tma_store(O, coords=(0, j * 64))  # expected-error {{role 'math' writes 'o_s' with generic-proxy stores, then reads it through the async proxy ('tma_store') without 'lm.fence_proxy()' in between}}
            lm.tma_store_wait()
            lm.role_sync()
            o_s.store(s)  # expected-note {{'o_s' written here}}
            lm.role_sync()
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def sync_before_fence_next_iteration(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)
        lm.fence_proxy()
        lm.role_sync()
        for j in lm.range(0, 4):
            lm.fence_proxy()
            o_s.tma_store(O, coords=(0, j * 64))  # expected-error {{one elected thread of role 'math' reads 'o_s' ('tma_store') right after all its threads wrote it; add 'lm.role_sync()' after the fence}}
            lm.tma_store_wait()
            lm.role_sync()
            o_s.store(s)  # expected-note {{'o_s' written here}}
            lm.role_sync()
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def cp_async_fence_before_wait(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        a_s.cp_async(A, coords=(0, 0), barrier=got)  # expected-note {{'a_s' written here}}
        b_s.cp_async(B, coords=(0, 0), barrier=got)  # expected-note {{'b_s' written here}}
        lm.fence_proxy()
        lm.role_sync()
        lm.wait(got, stage=0)  # expected-note 2 {{role 'math' waits on 'got' here}}
        lm.mma(o, a_s, b_s.T, init=True)  # expected-error {{role 'math' writes 'a_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}} expected-error {{role 'math' writes 'b_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def fence_missing_else(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)  # expected-note {{'o_s' written here}}
        if lm.block_id(0) == 0:
            lm.fence_proxy()
        elif lm.block_id(0) == 1:
            lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'o_s' with generic-proxy stores, then reads it through the async proxy ('tma_store') without 'lm.fence_proxy()' in between}}
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def fence_in_loop_maybe_empty(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        o_s.store(s)  # expected-note {{'o_s' written here}}
        for j in lm.range(0, lm.block_id(0)):   # block 0: no iteration
            lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'o_s' with generic-proxy stores, then reads it through the async proxy ('tma_store') without 'lm.fence_proxy()' in between}}
        lm.tma_store_wait()

@cake.schedule(grid=(n,))
def fence_after_first_then_exit(lm, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        s = lm.fill(s, 1.0)
        for j in lm.range(0, n):
            o_s.store(s)  # expected-note {{'o_s' written here}}
            if j > 0:
                lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'o_s' with generic-proxy stores, then reads it through the async proxy ('tma_store') without 'lm.fence_proxy()' in between}}
        lm.tma_store_wait()
