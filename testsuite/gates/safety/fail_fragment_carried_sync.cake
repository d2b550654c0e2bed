# The only sync between one iteration's store and the next iteration's load
# runs on the first iteration only (a guard, i == 0): it does not order the
# iterations after (found by review, 2026-12-05; accepted before). A sync
# in an inner loop that may run no iteration: fail_fragment_carried_sync_zero.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64]):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v)
        lm.role_sync()
        for i in lm.range(0, 4):
            w = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored in the previous iteration; add 'lm.role_sync()' between them}}
            lm.store_tile(Y, coords=(0, 0), src=w)
            lm.role_sync()
            t_s.store(v, transpose=True)  # expected-note {{'t_s' written here}}
            if i == 0:
                lm.role_sync()
