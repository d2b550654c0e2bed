# One thread arrives on 'ready' after the role's generic stores into s_s:
# the then-branch role-syncs first, the else-branch does not. A signal
# that can complete the phase without the sync hands over rows other warps
# may not have written; the sync in one branch does not vouch for the other
# (found by review, 2026-12-05, after syncs in branches began to count for
# fragment accesses: this one must not).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], n: LM.i32):
    pool = lm.smem(16384)
    s_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    out = lm.role(warps=[4, 5, 6, 7])
    ready = lm.barrier(count=1, prod=[math], cons=[out], init_count=1)
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        s_s.store(v)  # expected-note {{'s_s' written here}}
        if n > 4:
            lm.role_sync()
            lm.arrive(ready, stage=0, per="role")
        else:
            lm.arrive(ready, stage=0, per="role")  # expected-error {{role 'math' hands 's_s' over (signal on 'ready') with one arrival per role, but it writes 's_s' per warp: the signalling thread has seen only its own warp's stores; call lm.role_sync() before the signal}}
    with out:
        lm.wait(ready, stage=0)
        w = s_s.load()
        lm.store_tile(Y, coords=(0, 0), src=w)
