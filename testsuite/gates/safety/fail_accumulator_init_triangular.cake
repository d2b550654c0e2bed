# A triangular nest: the m loop runs no iteration at t == 0, so the first
# mma runs at t == 1, where init=(t == 0 and k == 0) is false; the first
# run of a loop nest is at every loop's first value only where each inner
# loop runs at its outer loops' first values (found by review, 2026-12-05;
# accepted before, and so was init=(t + k == 0): the second schedule).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    full = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        a_s.tma_load(A, coords=(0, 0), stage=0, barrier=full)
        b_s.tma_load(B, coords=(0, 0), stage=0, barrier=full)
    with math:
        lm.wait(full, stage=0)
        for t in lm.range(0, 4):
            for m in lm.range(0, t):
                for k in lm.range(0, 2):
                    lm.mma(acc, a_s, b_s.T, init=(t == 0 and k == 0))  # expected-error {{cannot prove that 'acc' is initialised before role 'math' first accumulates into it: init=(t == 0 and k == 0) of its first 'mma' has no known value on its first run}}
                    lm.mma_commit()
                    lm.mma_wait(pending=0)
                out = lm.cast(acc, lm.bf16)
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(0, 0))
                lm.tma_store_wait()
                lm.role_sync()

@cake.schedule()
def k_affine(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    full = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        a_s.tma_load(A, coords=(0, 0), stage=0, barrier=full)
        b_s.tma_load(B, coords=(0, 0), stage=0, barrier=full)
    with math:
        lm.wait(full, stage=0)
        for t in lm.range(0, 4):
            for m in lm.range(0, t):
                for k in lm.range(0, 2):
                    lm.mma(acc, a_s, b_s.T, init=(t + k == 0))  # expected-error {{cannot prove that 'acc' is initialised before role 'math' first accumulates into it: init=(t + k == 0) of its first 'mma' has no known value on its first run}}
                    lm.mma_commit()
                    lm.mma_wait(pending=0)
                out = lm.cast(acc, lm.bf16)
                c_s.store(out)
                lm.fence_proxy()
                lm.role_sync()
                c_s.tma_store(C, coords=(0, 0))
                lm.tma_store_wait()
                lm.role_sync()
