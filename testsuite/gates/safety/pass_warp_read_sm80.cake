# The near miss of fail_warp_read_sm80.cake: the four warps' stores of A
# and B, then lm.role_sync(), then each warp's mma.sync. It lowers. The
# second kernel has no fence: mma.sync reads with ldmatrix, through the
# generic proxy, so none is needed on sm_80 nor on sm_120a, whose TMA has an
# async proxy (both asked for one before 2026-12-07).
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
# RUN: %cakec -verify -fsyntax-only --target=sm_120a %s
# RUN: %cakec --target=sm_80 %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, O: LM.tensor2d[64, 64]):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    b_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16)
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        s = lm.fill(s, 1.0)
        a_s.store(s)
        b_s.store(s)
        lm.fence_proxy()
        lm.role_sync()                    # every warp's stores are done
        lm.mma(o, a_s, b_s.T, init=True)
        lm.store_tile(O, coords=(0, 0), src=o)

@cake.schedule()
def no_fence(lm, O: LM.tensor2d[64, 64]):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    b_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16)
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        s = lm.fill(s, 1.0)
        a_s.store(s)
        b_s.store(s)
        lm.role_sync()                    # every warp's stores are done
        lm.mma(o, a_s, b_s.T, init=True)
        lm.store_tile(O, coords=(0, 0), src=o)
