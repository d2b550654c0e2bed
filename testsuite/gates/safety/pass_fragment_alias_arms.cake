# Stores through two views that share bytes on the two sides of one `if`
# (split-K's `if S == 1:` storing C's bf16 tile through one view and the
# f32 partial through its alias otherwise): a pass through the role runs
# only one side, so no role sync is needed between them. Their broken
# variant, the same `if` in a loop (one iteration's store meets the next
# one's through the alias), is in fail_fragment_alias_arms.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# RUN: FileCheck %s < %t.cu
# CHECK: __global__
# expected-no-diagnostics
@cake.schedule()
def k(lm, Y: LM.tma2d, Z: LM.tma2d, S: LM.i32):
    pool = lm.smem(32768)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        if S == 1:
            h_s.store(lm.cast(v, lm.bf16))
            lm.fence_proxy()
            lm.role_sync()
            h_s.tma_store(Y, coords=(0, 0))
        else:
            t_s.store(v)
            lm.fence_proxy()
            lm.role_sync()
            t_s.tma_store(Z, coords=(0, 0))
        lm.tma_store_wait()

# the same two sides in a loop, with a role sync at the end of every
# iteration: the path through the back edge passes it
@cake.schedule()
def k2(lm, Y: LM.tensor2d[64, 128], S: LM.i32):
    pool = lm.smem(32768)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        for j in lm.range(0, S):
            if j % 2 == 0:
                h_s.store(lm.cast(v, lm.bf16))
            else:
                w = t_s.load()
                lm.store_tile(Y, coords=(0, 0), src=w)
            lm.role_sync()
