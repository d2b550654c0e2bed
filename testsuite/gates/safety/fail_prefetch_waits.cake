# Broken variants of pass_prefetch_waits.cake (every copy issued, then each
# stage waited for in a later loop). A read before the wait, in its loop or
# in a loop before the waits: the role's own cp.async has not landed (the
# gate skipped the role's own copies before 2026-12-06 and accepted the
# first). A wait on a stage past the copies (j + 1), a wait loop over other
# iterations, a signal after the copies (stage 4 lands on mbarrier 0 again,
# so the wait for stage 0's phase passes or hangs on the wrong one), and
# copies of more stages than the ring has: each wait names a phase that is
# not its stage's latest. Then the holes an independent review found in the
# first version of the rule (2026-12-06), each accepted by it and racy.
# The second review's (2026-12-06, after the refill rule) four holes, each
# accepted then, run wrong or hung on an H100, are at the end: a refill into
# a single-slot view, a second role waiting on the ring, a read of a slot
# after the role's own refill copy into it, a refill through an alias one
# slot over; each with its variant without the wait loop.
# After those, broken variants of the copy-ahead loop (the single-role
# multistage loop: copies of stages 0 to d - 1, then each iteration waits
# for stage j and copies stage j + d under a guard), which
# pass_prefetch_waits.cake accepts.
# Last, the third review's (2026-12-06) accepted inputs: straight-line
# copies past the first lap, stores at step 2, run-time counts below d (a
# count with no lower bound: -Wunproven, unproven-copy-ahead; a tensor
# dimension, at least 1, below d: an error), and a guarded copy waited for
# unguarded.
# Last, broken variants of the per-tile prefetch in a persistent loop
# (t * 4 + j) and of the refill loop, which pass_prefetch_waits.cake accepts
# (with the holes a review of the first found).
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
        x_s.cp_async(X, coords=(0, 0), stage=4, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 5 time(s) but waits on it 4 time(s)}}
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
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 8 time(s) but waits on it 4 time(s)}}
        for i in lm.range(0, 4):
            z = x_s.load(stage=i, layout="rows")  # expected-error {{role 'rows' reads stage i of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Y, coords=(i * 256, 0), src=z)

# -----
# A copy before the prefetch loop (stage 0 on mbarrier 0, never waited for): the wait for stage 4
# (mbarrier 0, parity 1) passes at once on the older phase. Only the first signals of a
# barrier qualify (found by review).
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], W: LM.tensor2d[64, 64]):  # expected-warning {{tensor 'Z' is declared but never used}}
    pool = lm.smem(40960)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    w_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        w_s.cp_async(W, coords=(0, 0), stage=0, barrier=got)
        for j in lm.range(1, 5):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 5 time(s) but waits on it 4 time(s)}}
        for j in lm.range(1, 5):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# Another role's copies read again in a later loop after the stages were released: the
# producer refills them meanwhile. The later-loop rule is for a role's own copies (review).
@cake.schedule()
def k(lm, X: LM.tma2d, S: LM.tma2d):
    pool = lm.smem(1024 + 16384)
    x_s = pool.view(offset=0, shape=(1, 64), dtype=lm.f32, stage=4)
    s_s = pool.view(offset=1024, shape=(64, 64), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)  # expected-note {{barrier 'full' declared here}}
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    with load:
        for i in lm.range(0, 8):
            lm.wait(empty, stage=i)
            x_s.tma_load(X, coords=(0, i), stage=i, barrier=full)
    with math:
        acc = lm.fill(acc, 0.0)
        for i in lm.range(0, 4):
            lm.wait(full, stage=i)
            lm.arrive(empty, stage=i, per="warp")
        for i in lm.range(0, 4):
            acc = acc + x_s.load(stage=i)  # expected-error {{role 'math' reads stage i of 'x_s' but never waits on barrier 'full' for that stage}}
        for i in lm.range(4, 8):
            lm.wait(full, stage=i)
            acc = acc + x_s.load(stage=i)
            lm.arrive(empty, stage=i, per="warp")
        s_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        s_s.tma_store(S, coords=(0, 0))

# -----
# A plain store to another stage of the view does not make the role's own copy of stage j
# its own data: the read before the wait is still a race (review).
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    f = lm.regs(shape=(64, 64), dtype=lm.bf16, role=rows)
    with rows:
        f = lm.fill(f, 0.0)
        x_s.store(f, stage=3)
        lm.role_sync()
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)
            x = x_s.load(stage=j)  # expected-error {{role 'rows' reads stage j of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.wait(got, stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# Reads in a later loop of more stages than the view holds: slot j % 4 has been refilled
# with stage j + 4 (review).
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], W: LM.tensor2d[64, 64]):  # expected-warning {{tensor 'W' is declared but never used}}
    pool = lm.smem(40960)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    w_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16)  # expected-warning {{view 'w_s' is declared but never used}}
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 8):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)
            lm.role_sync()
        for j in lm.range(0, 8):
            z = x_s.load(stage=j)  # expected-error {{role 'rows' reads stage j of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Z, coords=(j * 64, 0), src=z)

# -----
# A second prefetch into the same ring: its copies are not the barrier's first, so its waits
# are not prefetched ones (and other warps of the role may still read the slots; review).
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 512], Y: LM.tensor2d[64, 256], Z: LM.tensor2d[64, 256]):
    pool = lm.smem(65536)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)  # expected-note {{'x_s' read here}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)
        for j in lm.range(4, 8):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add 'lm.role_sync()' between them}}
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j)
            lm.store_tile(Z, coords=(j * 64 - 256, 0), src=x)

# -----
# A persistent prefetch without the role sync before the next tile's copies: a thread's copy
# overwrites a slot other threads of the role may still read.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded in the previous iteration}}
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j)
                x = x_s.load(stage=t * 4 + j, layout="rows")  # expected-note {{'x_s' read here}}
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)

# -----
# Two laps of the ring per tile (8 stages on 4): a wait's phase is not its stage's latest.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 8):
                x_s.cp_async(X, coords=(j * 128, t * 4), stage=t * 8 + j, barrier=got)
            for j in lm.range(0, 8):
                lm.wait(got, stage=t * 8 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 8 + j', which is not its running count of uses}}
                x = x_s.load(stage=t * 8 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 128, t * 4), src=x)
            lm.role_sync()

# -----
# A copy of the barrier after the tile's waits: not every signal is in the signal loop.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 3):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)
            for j in lm.range(0, 3):
                lm.wait(got, stage=t * 4 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 4 + j', which is not its running count of uses}}
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(768, t * 4), stage=t * 4 + 3, barrier=got)

# -----
# Waits over fewer iterations than the copies: the next tile's copies start a lap over unwaited phases.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)
            for j in lm.range(0, 2):
                lm.wait(got, stage=t * 4 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 4 + j', which is not its running count of uses}}
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            lm.role_sync()

# -----
# The later read loop reads stages of the next tile's lap, never waited for.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j)
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 4 + i + 4, layout="rows")  # expected-error {{role 'rows' reads stage t*4+i+4 of 'x_s' but never waits on barrier 'got' for that stage}}
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)
            lm.role_sync()

# -----
# Five stages per tile on a ring of four (t * 5 + j): not a running count of whole laps.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 5):
                x_s.cp_async(X, coords=(j * 128, t * 4), stage=t * 5 + j, barrier=got)
            for j in lm.range(0, 5):
                lm.wait(got, stage=t * 5 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 5 + j', which is not its running count of uses}}
                x = x_s.load(stage=t * 5 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 128, t * 4), src=x)
            lm.role_sync()

# -----
# A refill inside the later read loop: a signal outside the signal loop, and a copy over slots other threads read.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded in the previous iteration}}
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 4 + j', which is not its running count of uses}}
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            lm.role_sync()
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 4 + i, layout="rows")  # expected-note 2 {{'x_s' read here}}
                x_s.cp_async(X, coords=(i * 256, t * 4), stage=t * 4 + i, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add}}
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)

# -----
# Found by review (2026-12-06): per tile, stages t * 8 + j on a ring of 4 skip a lap (each tile's stage j is
# mbarrier j at parity 0, which phase 0 already gave), so tile 1's waits pass before its copies land.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 8 + j, barrier=got)
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 8 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 8 + j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name th}}
                x = x_s.load(stage=t * 8 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 8 + i, layout="rows")  # expected-error {{role 'rows' reads stage t*8+i of 'x_s' but never waits on barrier 'got' for that stage}}
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)
            lm.role_sync()

# -----
# Found by review: t * 2 + j repeats stages; tile 1's wait on stage 2 passes on the first tile's phase.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 2 + j, barrier=got)
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 2 + j)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 2 + j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name th}}
                x = x_s.load(stage=t * 2 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 2 + i, layout="rows")  # expected-error {{role 'rows' reads stage t*2+i of 'x_s' but never waits on barrier 'got' for that stage}}
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)
            lm.role_sync()

# -----
# Found by review: tiles from 1, so the first stages are 4..7 and a fresh barrier's parity 1 passes at once.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(1, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 4 + j', which is not its running count of uses (0, 1, 2, ...): its first value is 4, but the next stage of the sequ}}
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j)
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 4 + i, layout="rows")
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)
            lm.role_sync()

# -----
# Found by review: t * 4 + j + 1 starts at stage 1, so stage 4 (mbarrier 0, parity 1) passes on a fresh barrier.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j + 1, barrier=got)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 4 + j + 1', which is not its running count of uses (0, 1, 2, ...): its first value is 1, but the next stage of the}}
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j + 1)
                x = x_s.load(stage=t * 4 + j + 1, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 4 + i + 1, layout="rows")
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)
            lm.role_sync()

# -----
# A wait in the tile's body past its lap (t * 4 + 7), beside the prefetched ones: checked one by one (a region
# over the tile loop once skipped it).
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j)
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            lm.wait(got, stage=t * 4 + 7)  # expected-error {{role 'rows' uses barrier 'got' at stage 't * 4 + 7', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name th}}
            lm.role_sync()

# -----
# A refill before the wait for the slot it overwrites (the copy lands on a phase not yet waited for).
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The second wait loop over more iterations than the refills (stage 8 was never copied).
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(4, 9):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The second wait loop one stage ahead of the refills.
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(4, 8):
            lm.wait(got, stage=j + 1)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j + 1', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the st}}
            x = x_s.load(stage=j, layout="rows")  # expected-error {{role 'rows' reads stage j of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# A copy of the barrier between the refill loop and the second wait loop.
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")  # expected-note {{'x_s' read here}}
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        x_s.cp_async(X, coords=(0, 0), stage=8, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add 'lm.role_sync()' between}} expected-error {{barrier 'got': role 'rows' signals it 9 time(s) but waits on it 8 time(s)}}
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# A refill with no role sync after the reads of the slot it overwrites.
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")  # expected-note {{'x_s' read here}}
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add 'lm.role_sync()' between}}
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The refilled stages read without their waits.
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 8 time(s) but waits on it 4 time(s)}}
        for i in lm.range(0, 4):
            z = x_s.load(stage=i + 4, layout="rows")  # expected-error {{role 'rows' reads stage i+4 of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Z, coords=(i * 256, 0), src=z)

# -----
# A refill into a single-slot view (review 2026-12-06, S1): every lap's copy lands in one buffer, so the wait for stage 4 passes while the copies of stages 5 to 7 still write it (wrong on every launch on an H100)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(10240)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    w_s = pool.view(offset=8192, shape=(4, 256), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: 'w_s' has 1 slot(s) for its 4 stages)}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            w_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: 'w_s' has 1 slot(s) for its 4 stages)}}
            x = w_s.load(layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The prefetch into a single-slot view: four copies into one buffer at once
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(2048)
    w_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            w_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: 'w_s' has 1 slot(s) for its 4 stages)}}
            x = w_s.load(layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
# A second role waits on the refilled ring (S2): the refill overwrites slot j while it may still read it, and its parity waits name phases two laps old (a hang on an H100 with that role delayed)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024], W: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)  # expected-note {{'x_s' declared here}}
    rows = lm.role(warps=[0, 1, 2, 3])
    other = lm.role(warps=[4, 5, 6, 7])
    got = lm.barrier(count=4, prod=[rows], cons=[rows, other], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: role 'other' waits on it too)}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{role 'rows' overwrites stage j+4 of 'x_s' when the ring wraps but never waits for role 'other' to release it}}
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: role 'other' waits on it too)}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)
    with other:
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            w = x_s.load(stage=j, layout="rows")
            lm.store_tile(W, coords=(j * 256, 0), src=w)

# -----
# The same second reader with no wait loop: the refill is a wrap onto slots another role reads
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], W: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)  # expected-note {{'x_s' declared here}}
    rows = lm.role(warps=[0, 1, 2, 3])
    other = lm.role(warps=[4, 5, 6, 7])
    got = lm.barrier(count=4, prod=[rows], cons=[rows, other], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: role 'other' waits on it too)}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{role 'rows' overwrites stage j+4 of 'x_s' when the ring wraps but never waits for role 'other' to release it}}
    with other:
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            w = x_s.load(stage=j, layout="rows")
            lm.store_tile(W, coords=(j * 256, 0), src=w)

# -----
# A read of the slot after the refill copy into it in the same iteration (S3): the copy may land while the read runs (wrong on an H100 with the copy slowed)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024], W: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-note {{'x_s' written here}}
            x2 = x_s.load(stage=j, layout="rows")  # expected-error {{role 'rows' reads stage j of 'x_s' after issuing its own copy into the same slot (stage j+4), with no wait on 'got' for that copy in between: the copy may be landing while the read runs; read the slot before the copy, or wait for the copy first}}
            lm.store_tile(W, coords=(j * 256, 0), src=x2)
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The same slot stored to global memory (an asynchronous read) after the refill copy, with a role_sync between: the sync does not wait for the copy
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024], W: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-note {{'x_s' written here}}
            lm.role_sync()
            x_s.copy_to(W, coords=(j * 256, 0), stage=j)  # expected-error {{role 'rows' reads stage j of 'x_s' after issuing its own copy into the same slot (stage j+4), with no wait on 'got' for that copy in between: the copy may be landing while the read runs; read the slot before the copy, or wait for the copy first}}
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# A refill into an alias one slot over (S4): slot j of y_s is slot j + 1 of x_s, whose prefetched copy is still to be read
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(10240)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    y_s = pool.view(offset=2048, shape=(4, 256), dtype=lm.bf16, stage=4, alias=True)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: 'x_s' shares bytes with 'y_s' in other slots)}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            y_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: 'x_s' shares bytes with 'y_s' in other slots)}}
            x = y_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The same alias with no wait loop
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(10240)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    y_s = pool.view(offset=2048, shape=(4, 256), dtype=lm.bf16, stage=4, alias=True)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one (a wait for copies of an earlier loop needs a ring of the role's own: 'x_s' shares bytes with 'y_s' in other slots)}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            y_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 8 time(s) but waits on it 4 time(s)}}

# -----
# The copy-ahead loop (the single-role multistage cp.async loop) whose guard leaves out one copy too many: the last wait names a stage nothing copies (it would hang)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 5:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# Its guard leaving out one copy too few: stage 8 is copied onto mbarrier 0 with no wait for it
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 7:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 9 time(s) but waits on it 8 time(s)}}

# -----
# One copy before the loop where the loop copies two ahead: stage 1 is never copied
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 1):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 6:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j + 2', which is not its running count of uses (0, 1, 2, ...): its first value is 2, but the next stage of the sequence is 1}}

# -----
# The copy a whole lap ahead (j + 4 on a ring of 4) issued before the wait in the iteration: it lands on the mbarrier of the stage about to be waited for, whose wait may then pass on the newer phase
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            if j < 4:
                x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()

# -----
# The wait loop starting at stage 1: stage 0's phase is never waited for, so the wait a lap later may pass on it
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(1, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 6:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# A wait on the ring before the copy-ahead loop
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        lm.wait(got, stage=0)  # expected-error {{role 'rows' uses barrier 'got' at stage '0', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage 0 is not one}}
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 6:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# Two copies in the loop at different distances
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 6:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)  # expected-note {{role 'rows' signals 'got' here}}
                x_s.cp_async(X, coords=(j * 256 + 768, 0), stage=j + 3, barrier=got)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j + 3', which is not its running count of uses (0, 1, 2, ...): another use in the same iteration names stage 'j+2', so two uses land in different phases of one iteration (one iteration, one stage)}} expected-error {{barrier 'got': role 'rows' signals it 14 time(s) but waits on it 8 time(s)}}

# -----
# A read of the next stage, not yet waited for
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j + 1, layout="rows")  # expected-error {{role 'rows' reads stage j+1 of 'x_s' but never waits on barrier 'got' for that stage}}
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 6:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# The copy-ahead loop copying to its end, then a drain loop one stage short: stage 11's copy is left in flight
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 2048], Z: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 12 time(s) but waits on it 11 time(s)}}
        for j in lm.range(8, 11):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 2048, 0), src=x)

# -----
# A drain loop starting a stage late: it waits for stage 12, which nothing copies (it would hang), and leaves stage 8 unwaited
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 2048], Z: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(9, 13):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 2048, 0), src=x)

# -----
# No drain loop at all: the last four copies are never waited for
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 12 time(s) but waits on it 8 time(s)}}
        lm.role_sync()

# -----
# A copy between the copy-ahead loop and its drain: stage 12 lands on mbarrier 0 before the drain waits for stage 8 there
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 2048], Z: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note 2 {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")  # expected-note {{'x_s' read here}}
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        x_s.cp_async(X, coords=(0, 0), stage=12, barrier=got)  # expected-error {{role 'rows' stores 'x_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add 'lm.role_sync()' between them}} expected-error {{barrier 'got': role 'rows' signals it 13 time(s) but waits on it 12 time(s)}}
        for j in lm.range(8, 12):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 2048, 0), src=x)

# -----
# A drain loop whose second wait names the next stage: the last iteration waits for stage 12, which nothing copies
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 2048], Z: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(8, 12):
            lm.wait(got, stage=j)
            lm.wait(got, stage=j + 1)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j + 1', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j + 1 is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 2048, 0), src=x)

# -----
# A refill loop with no wait loop after it (review 2026-12-06): its copies are never waited for, and land while the block exits
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)  # expected-error {{barrier 'got': role 'rows' signals it 8 time(s) but waits on it 4 time(s): the copies of the last 4 stage(s) are never waited for, and may land while the block reads on or after it exits}}

# -----
# Straight-line copies past the first lap (stages 4 to 7 on a ring of 4) with another role reading the ring and no release (third review, 2026-12-06: straight-line writes were exempt from ring-reuse)
@cake.schedule()
def k(lm, A: LM.tma2d, Y: LM.tensor2d[4, 4096]):
    pool = lm.smem(16384)
    a_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)  # expected-note 4 {{'a_s' declared here}}
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    with load:
        for j in lm.range(0, 4):
            a_s.tma_load(A, coords=(j * 256, 0), stage=j, barrier=full)
        a_s.tma_load(A, coords=(1024, 0), stage=4, barrier=full)  # expected-error {{role 'load' overwrites stage 4 of 'a_s' when the ring wraps but never waits for role 'math' to release it}}
        a_s.tma_load(A, coords=(1280, 0), stage=5, barrier=full)  # expected-error {{role 'load' overwrites stage 5 of 'a_s' when the ring wraps but never waits for role 'math' to release it}}
        a_s.tma_load(A, coords=(1536, 0), stage=6, barrier=full)  # expected-error {{role 'load' overwrites stage 6 of 'a_s' when the ring wraps but never waits for role 'math' to release it}}
        a_s.tma_load(A, coords=(1792, 0), stage=7, barrier=full)  # expected-error {{role 'load' overwrites stage 7 of 'a_s' when the ring wraps but never waits for role 'math' to release it}}
    with math:
        for j in lm.range(0, 8):
            lm.wait(full, stage=j)
            x = a_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
# Stores over a loop of step 2 (stages 0, 2, 4, 6 into a ring of 4): the first-lap exemption counted trips, not stages
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 4096], Y: LM.tensor2d[64, 256]):
    pool = lm.smem(65536)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, stage=4)  # expected-note {{'x_s' declared here}}
    prod = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    full = lm.barrier(count=1, prod=[prod], cons=[math], init_count=128)
    with prod:
        for t in lm.range(0, 8, 2):
            v = lm.load_tile(X, coords=(t * 64, 0), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            x_s.store(v, stage=t)  # expected-error {{role 'prod' overwrites stage t of 'x_s' when the ring wraps but never waits for role 'math' to release it}}
        lm.arrive(full, stage=0, per="thread")
    with math:
        lm.wait(full, stage=0)
        for j in lm.range(0, 8, 2):
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 32, 0), src=x)

# -----
# The copy-ahead loop over a run-time count that may be below d: with n < 2 the copies before the loop are never
# waited for; n has no lower bound, so the gate cannot tell (-Wunproven, unproven-copy-ahead)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 4096], n: LM.i32):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, n):  # expected-error {{cannot prove that the loop over 'j' runs at least 2 iterations: role 'rows' copies 2 stage(s) of barrier 'got' ahead of its waits, and with fewer its copies and waits do not pair up; its count n has no lower bound the launcher checks (bound it with lm.max, or declare it as a tensor dimension)}}
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < n - 2:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# The same over a tensor dimension N: the launcher checks N >= 1, and at N = 1 stage 1's copy is never waited for
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 4096], R: LM.tensor1d[N], N: LM.i32):  # expected-warning {{tensor 'R' is declared but never used}}
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, N):
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < N - 2:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# The copy-ahead loop with a drain over a run-time count that may be negative (unproven-copy-ahead, reported once
# for the loop and its drain)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 8192], Y: LM.tensor2d[4, 8192], Z: LM.tensor2d[4, 8192], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, n):  # expected-error {{cannot prove that the loop over 'j' has no negative count (its drain loop starts at its stop): role 'rows' copies 4 stage(s) of barrier 'got' ahead of its waits}}
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(n, n + 4):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256, 0), src=x)

# -----
# A copy under a guard and its wait outside it: the last iteration waits for a stage nothing copies (a hang)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 4096], Z: LM.tensor2d[4, 4096]):  # expected-warning {{tensor 'Z' is declared but never used}}
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 8):
            if j < 7:
                x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
            lm.wait(got, stage=j)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j is not one}}
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()

# -----
# The next stage copied under a guard and waited for outside it: the last iteration waits for stage 8, which nothing copies
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 4096], Z: LM.tensor2d[4, 4096]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)  # expected-note {{barrier 'got' declared here}}
    with rows:
        for j in lm.range(0, 1):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 7:
                x_s.cp_async(X, coords=(j * 256 + 256, 0), stage=j + 1, barrier=got)
            lm.wait(got, stage=j + 1)  # expected-error {{role 'rows' uses barrier 'got' at stage 'j + 1', which is not its running count of uses (0, 1, 2, ...): role 'rows' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage j + 1 is not one}}
            x2 = x_s.load(stage=j + 1, layout="rows")
            lm.store_tile(Z, coords=(j * 256, 0), src=x2)

# -----
# Stores at stage j over a loop the stage does not count (t): each tile rewrites slots 0 and 1, handed over per tile, with no release: the first-lap exemption counted both loops' trips (4 <= 4)
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 256]):
    pool = lm.smem(65536)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, stage=4)  # expected-note {{'x_s' declared here}}
    prod = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=prod)
    full = lm.barrier(count=1, prod=[prod], cons=[math], init_count=128)
    with prod:
        v = lm.fill(v, 1.0)
        for t in lm.range(0, 2):
            for j in lm.range(0, 2):
                x_s.store(v, stage=j)  # expected-error {{role 'prod' overwrites stage j of 'x_s' when the ring wraps but never waits for role 'math' to release it}}
            lm.arrive(full, stage=t, per="thread")
    with math:
        for t in lm.range(0, 2):
            lm.wait(full, stage=t)
            for j in lm.range(0, 2):
                x = x_s.load(stage=j)
                lm.store_tile(Y, coords=(t * 128 + j * 64, 0), src=x)
