# Broken variants of pass_alias_own_rows.cake (a two-warpgroup role
# writing O over the Q rows it read): the exemption holds only for the A
# operand's own rows, after the warpgroup's own wait.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# Part 1: O moved over k_s, the B operand both warpgroups read: warpgroup
# 0's rows of O are bytes warpgroup 1's wgmma may still read.
@cake.schedule()
def k1(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    k_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
        k_s.tma_load(Kt, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        out = lm.cast(s, lm.bf16)
        o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, in another of its warpgroups, 'k_s', which shares those bytes: each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before the write makes every warpgroup's wait come first}}
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
# -----
# Part 2: the wgmma group not waited for (pending=1): no warpgroup's own
# wait orders its read before the write.
@cake.schedule()
def k2(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    k_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
        k_s.tma_load(Kt, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'q_s' read here}} expected-note {{'mma' issued here; it runs on until its group is waited for}}
        lm.mma_commit()
        lm.mma_wait(pending=1)
        out = lm.cast(s, lm.bf16)  # expected-error {{role 'math' uses the register fragment 's' while the asynchronous 'mma' that writes it may still be running; wait for it first: lm.mma_commit() after it, then lm.mma_wait()}}
        o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, in another of its warpgroups, 'q_s', which shares those bytes: each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before the write makes every warpgroup's wait come first}}
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
