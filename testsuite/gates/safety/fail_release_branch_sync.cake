# One arrival per role releases the stage two warpgroups' wgmmas read. The
# else branch syncs before its mma_wait, so its elected thread has seen only
# its own warpgroup's wgmma retire; the then-branch's order (wait, sync,
# arrive) is still refused as it was before, as the review found (2026-12-05).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32, n: LM.i32):
    pool = lm.smem(98304)
    a_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=32768, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=1, pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-note {{'a_s' read here}} expected-note {{'a_s' read here}}
            lm.mma_commit()
            if n > 4:
                lm.mma_wait(pending=0)
                lm.role_sync()
                lm.arrive(empty, stage=k, per="role")  # expected-error {{role 'math' releases stage k of 'a_s' (arrive on 'empty') with one arrival per role, but it reads 'a_s' per warpgroup: the arriving thread has seen only its own warpgroup's reads finish, and the role's other warpgroups may still be reading; arrive per="warpgroup" (counting those arrivals in init_count) or call lm.role_sync() before the arrive}}
            else:
                lm.role_sync()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=k, per="role")  # expected-error {{role 'math' releases stage k of 'a_s' (arrive on 'empty') with one arrival per role, but it reads 'a_s' per warpgroup: the arriving thread has seen only its own warpgroup's reads finish, and the role's other warpgroups may still be reading; arrive per="warpgroup" (counting those arrivals in init_count) or call lm.role_sync() before the arrive}}
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
