# A near miss of fail_fragment_alias.cake (found by review, 2026-12-05):
# h_s lays t_s's bytes out exactly as t_s does (offset, shape, dtype,
# swizzle, stages), so a plain store through one and a plain load through
# the other give each element to the same thread, as two accesses of t_s
# itself do; lowered and assembled.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64]):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        h_s.store(v)
        lm.role_sync()
        t_s.store(v)
        w = h_s.load()
        lm.store_tile(Y, coords=(0, 0), src=w)
