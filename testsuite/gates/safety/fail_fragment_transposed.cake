# A transposed store gives a thread other elements of the view than a plain
# access of the same fragment shape: a load right after it, or a plain store
# right after it, meets elements other threads wrote, and needs an
# lm.role_sync() between (found by review, helper-30, 2026-12-05). Two
# transposed stores of one shape give each thread the same elements: no
# sync between them (pass_fragment_transposed.cake).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], Z: LM.tma2d):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v, transpose=True)  # expected-note {{'t_s' written here}}
        w = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
        lm.store_tile(Y, coords=(0, 0), src=w)
        lm.role_sync()
        t_s.store(v, transpose=True)  # expected-note {{'t_s' written here}}
        t_s.store(v * 2.0)  # expected-error {{role 'math' stores 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_store(Z, coords=(0, 0))
        lm.tma_store_wait()
