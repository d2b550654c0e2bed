# The near miss of fail_fragment_transposed.cake: two transposed stores of
# one fragment shape give each thread the same elements of the view (no sync
# between them); the load comes after an lm.role_sync().
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64]):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v, transpose=True)
        t_s.store(v * 2.0, transpose=True)
        lm.role_sync()
        w = t_s.load()
        lm.store_tile(Y, coords=(0, 0), src=w)
