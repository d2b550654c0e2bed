# The failing near misses of pass_fragment_branch_sync.cake: a role sync
# that does not run every time the accesses around it do. In the else
# branch, it runs only when the store and the load do not; in a branch of
# its own around nothing else (if i == m), it may be skipped; after the
# reads of one iteration but in a branch of its own, it does not order them
# before the next iteration's store.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], n: LM.i32, m: LM.i32):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        for i in lm.range(0, 4):
            if i == n:
                t_s.store(v, transpose=True)  # expected-note {{'t_s' written here}}
                w = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
                lm.store_tile(Y, coords=(0, 0), src=w)
            else:
                lm.role_sync()
        lm.role_sync()
        for i in lm.range(0, 4):
            if i == n:
                t_s.store(v, transpose=True)  # expected-error {{role 'math' stores 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded in the previous iteration; add 'lm.role_sync()' between them}}
                lm.role_sync()
                w = t_s.load()  # expected-note {{'t_s' read here}}
                lm.store_tile(Y, coords=(0, 0), src=w)
                if i == m:
                    lm.role_sync()
        lm.role_sync()
        for i in lm.range(0, 4):
            if i == n:
                t_s.store(v, transpose=True)  # expected-note {{'t_s' written here}}
                if i == m:
                    lm.role_sync()
                w = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
                lm.store_tile(Y, coords=(0, 0), src=w)
                lm.role_sync()
