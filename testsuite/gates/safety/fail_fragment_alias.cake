# Fragment accesses of two views that share bytes (an alias) within a role:
# the views lay their elements out differently, so a thread's store through
# one reaches bytes other threads load or store through the other, and the
# two need an lm.role_sync() between them (found by review, helper-30,
# 2026-12-05: a load of a view and then a store through its alias, within
# one role, was accepted). A load, then a store through an alias of another
# dtype; a store, then a load through an alias; and a loop whose store
# through the alias meets the next iteration's load. The same accesses with
# a role sync between, and aliases whose bytes do not overlap, pass
# (pass_fragment_alias.cake).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], Z: LM.tma2d):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v)
        lm.role_sync()
        w = t_s.load()  # expected-note {{'t_s' read here}}
        h_s.store(lm.cast(w, lm.bf16))  # expected-error {{role 'math' stores 'h_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded through 't_s', which shares its bytes; add 'lm.role_sync()' between them}}
        lm.role_sync()
        h_s.store(lm.cast(v, lm.bf16))  # expected-note {{'h_s' written here}}
        x = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored through 'h_s', which shares its bytes; add 'lm.role_sync()' between them}}
        lm.store_tile(Y, coords=(0, 0), src=x + w)
        lm.role_sync()
        for i in lm.range(0, 4):
            y = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored through 'h_s', which shares its bytes in the previous iteration; add 'lm.role_sync()' between them}}
            lm.role_sync()
            h_s.store(lm.cast(y * 2.0, lm.bf16))  # expected-note {{'h_s' written here}}
        lm.fence_proxy()
        lm.role_sync()
        h_s.tma_store(Z, coords=(0, 0))
        lm.tma_store_wait()
