# A role that refills its own ring with cp.async (each thread copies chunks
# that other threads' fragments hold) while other warps of the role may
# still read the slot: every thread's load of the slot must be done before
# any thread's copy into it, so a role sync lies between them (found by
# review, 2026-12-06: accepted before). The copy's own wait orders the
# other direction. Near misses: the same with lm.role_sync() after the
# read, in pass_refill_cross_thread.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 8):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded in the previous iteration; add 'lm.role_sync()' between them}}
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)  # expected-note {{'x_s' read here}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# A copy into a single-stage buffer right after the role read it.
@cake.schedule()
def k(lm, X: LM.tensor2d[128, 64], Y: LM.tensor2d[128, 64]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows], init_count=128)
    with rows:
        x_s.cp_async(X, coords=(0, 0), stage=0, barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load()  # expected-note {{'x_s' read here}}
        x_s.cp_async(X, coords=(0, 64), stage=1, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add 'lm.role_sync()' between them}}
        lm.wait(got, stage=1)
        y = x_s.load()
        lm.store_tile(Y, coords=(0, 0), src=x)
        lm.store_tile(Y, coords=(0, 64), src=y)

# -----
# The same over a loop one iteration longer than the ring: iteration 4
# refills iteration 0's slot.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 320], Y: LM.tensor2d[64, 320]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 5):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded in the previous iteration; add 'lm.role_sync()' between them}}
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)  # expected-note {{'x_s' read here}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)
