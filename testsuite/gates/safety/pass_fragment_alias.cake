# The near misses of fail_fragment_alias.cake: the same fragment accesses of
# two views that share bytes, each pair with an lm.role_sync() between them
# (in the loop, after the store through the alias, before the next
# iteration's load), and two alias views whose bytes do not overlap, which
# need none. Lowered and assembled (nvcc in CI).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# RUN: FileCheck %s < %t.cu
# CHECK: __global__
# expected-no-diagnostics
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], Z: LM.tma2d):
    pool = lm.smem(32768)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, alias=True)
    u_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.f32)
    g_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, alias=True)  # u_s's second half: not t_s's bytes
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v)
        lm.role_sync()
        w = t_s.load()
        lm.role_sync()
        h_s.store(lm.cast(w, lm.bf16))
        lm.role_sync()
        x = t_s.load()
        lm.store_tile(Y, coords=(0, 0), src=x + w)
        lm.role_sync()
        for i in lm.range(0, 4):
            y = t_s.load()
            lm.role_sync()
            h_s.store(lm.cast(y * 2.0, lm.bf16))
            lm.role_sync()
        lm.role_sync()  # the loop's may not run: the load below is ordered after its stores by this one
        u_s.store(v)
        z = t_s.load()  # another view's bytes than u_s's: no sync needed
        lm.role_sync()
        g_s.store(lm.cast(z, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        h_s.tma_store(Z, coords=(0, 0))
        lm.tma_store_wait()
