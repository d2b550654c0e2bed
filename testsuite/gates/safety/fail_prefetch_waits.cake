# Broken variants of pass_prefetch_waits.cake (every copy issued, then each
# stage waited for in a later loop). A read before the wait, in its loop or
# in a loop before the waits: the role's own cp.async has not landed (the
# gate skipped the role's own copies before 2026-12-06 and accepted the
# first). A wait on a stage past the copies (j + 1), a wait loop over other
# iterations, a signal after the copies (stage 4 lands on mbarrier 0 again,
# so the wait for stage 0's phase passes or hangs on the wrong one), and
# copies of more stages than the ring has: each wait names a phase that is
# not its stage's latest.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
            x = x_s.load(stage=j, layout="rows")  # expected-error {{role 'rows' reads stage j of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.wait(got, stage=j)
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for i in lm.range(0, 4):
            z = x_s.load(stage=i, layout="rows")  # expected-error {{role 'rows' reads stage i of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Z, coords=(i * 256, 0), src=z)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j + 1)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j + 1', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j + 1 is not one}}
            x = x_s.load(stage=j, layout="rows")  # expected-error {{role 'rows' reads stage j of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(1, 5):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j - 1, layout="rows")  # expected-error {{role 'rows' reads stage j-1 of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Y, coords=(j * 256 - 256, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        x_s.cp_async(X, coords=(0, 0), stage=4, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(4096)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
# A read in a later loop of stages refilled after the waits: the new copies
# have not landed (the waits were for the old ones).
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
        lm.role_sync()
        for j in lm.range(4, 8):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for i in lm.range(0, 4):
            z = x_s.load(stage=i, layout="rows")  # expected-error {{role 'rows' reads stage i of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Y, coords=(i * 256, 0), src=z)
