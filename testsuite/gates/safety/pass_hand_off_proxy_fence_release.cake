# Near miss of fail_hand_off_proxy_fence_late.cake: between its stores of c_s
# and its fence, the math role releases the ring's last stage (an arrive on
# the release barrier 'empty'), which hands nothing over; the hand-off
# ('staged') comes after the fence (an independent review found it refused
# by the first version of the rule).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
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
    KS = lm.max(1, (K + 63) // 64)
    with load:
        for k in lm.range(0, KS):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        lm.wait(staged, stage=0)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, KS):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            if k > 0:
                lm.arrive(empty, stage=k - 1)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.arrive(empty, stage=KS - 1)
        lm.fence_proxy()
        lm.arrive(staged, stage=0, per="thread")
