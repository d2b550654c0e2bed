# The math role fences its stores of c_s only after the arrive that hands
# them to the load role's TMA store: the load role may read c_s through the
# async proxy before the generic writes are visible to it (the fence must
# come between the stores and the hand-off; it was accepted because a fence
# followed the stores). Found by an independent review. Near miss:
# pass_hand_off_proxy_fence.cake (the fence before the arrive).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=((M + 63) // 64, (N + 63) // 64))
def epilogue_by_loader(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.barrier(count=1, prod=[math], cons=[load], init_count=128)
    with load:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        lm.wait(staged, stage=0)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))  # expected-note {{'c_s' read here; the read runs on after the operation is issued}}
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)  # expected-error {{role 'math' writes 'c_s' with generic-proxy stores that role 'load' reads through the async proxy ('tma_store'), but no 'lm.fence_proxy()' of role 'math' follows the stores before it hands them over: the async read may not see them}}
        lm.arrive(staged, stage=0, per="thread")  # expected-note {{role 'math' hands them over here, before its fence}}
        lm.fence_proxy()
