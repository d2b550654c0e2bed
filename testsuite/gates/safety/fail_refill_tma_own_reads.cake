# A role whose elected thread refills its own ring by TMA while the role's
# warps read the ring's slots apart (each warp its own loads): the copy into
# a slot may land while another warp of the role still reads it, unless the
# role's warps release the slot (a barrier they arrive at after reading,
# waited before the copy) or a role sync lies between the reads and the
# copy. Found writing the fp8 attention forward's V transpose
# (examples/attention_fwd_fp8_sm90a.cake): without its release barrier
# 'vread' it was accepted. The role's own copies landing on a barrier are
# no release of it. Near misses in pass_refill_tma_own_reads.cake; the
# cases below the first three were found by review (helper-52).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)  # expected-note {{'x_s' declared here}}
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        for j in lm.range(0, 16):
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)  # expected-error {{role 'rows' overwrites stage j of 'x_s' when the ring wraps but never waits for the other warps of role 'rows' to release it}}
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# A role sync before the loop orders only the first lap.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)  # expected-note {{'x_s' declared here}}
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        lm.role_sync()
        for j in lm.range(0, 16):
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)  # expected-error {{role 'rows' overwrites stage j of 'x_s' when the ring wraps but never waits for the other warps of role 'rows' to release it}}
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# A release barrier the role's warps arrive at, but one arrival for the
# whole role: the other warps' reads are not covered.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=2)
    got = lm.barrier(count=2, prod=[rows], cons=[rows], pipeline=ring)
    free = lm.barrier(count=2, prod=[rows], cons=[rows], pipeline=ring)
    with rows:
        for j in lm.range(0, 16):
            lm.wait(free, stage=j)
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)  # expected-note {{'x_s' read here}}
            lm.arrive(free, stage=j)  # expected-error {{role 'rows' releases stage j of 'x_s' (arrive on 'free') with one arrival per role, but it reads 'x_s' per warp}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# Outside loops: a second copy into a single-stage view right after the
# role's warps read it.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[128, 64]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows])
    with rows:
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load()  # expected-note {{'x_s' read here}}
        x_s.tma_load(X, coords=(0, 64), stage=1, barrier=got)  # expected-error {{one elected thread of role 'rows' copies into 'x_s' after the role read it per warp: the copy may land while another warp still reads it; add 'lm.role_sync()' between the reads and the copy}}
        lm.wait(got, stage=1)
        y = x_s.load()
        lm.store_tile(Y, coords=(0, 0), src=x)
        lm.store_tile(Y, coords=(64, 0), src=y)

# -----
# A copy ahead of the reads (tile j + 1 into the slot tile j - 1 used) with
# no role sync: the data barrier the copies land on releases nothing.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)  # expected-note {{'x_s' declared here}}
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        for j in lm.range(0, 16):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            if j < 15:
                x_s.tma_load(X, coords=(0, j * 64 + 64), stage=j + 1, barrier=got)  # expected-error {{role 'rows' overwrites stage j+1 of 'x_s' when the ring wraps but never waits for the other warps of role 'rows' to release it}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# Two tiles ahead into a ring of two: the copy refills the slot read in the
# same iteration, so a role sync before the read does not order them.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)  # expected-note {{'x_s' declared here}}
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        x_s.tma_load(X, coords=(0, 64), stage=1, barrier=got)
        for j in lm.range(0, 16):
            lm.wait(got, stage=j)
            lm.role_sync()
            x = x_s.load(stage=j)
            if j < 14:
                x_s.tma_load(X, coords=(0, j * 64 + 128), stage=j + 2, barrier=got)  # expected-error {{role 'rows' overwrites stage j+2 of 'x_s' when the ring wraps but never waits for the other warps of role 'rows' to release it}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# Two warpgroups of one role read the ring by wgmma, each waiting for its
# own; the elected thread's copies wait for neither's reads.
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tensor2d[128, 128], K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")  # expected-note {{'a_s' declared here}}
    b_s = pool.view(offset=32768, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")  # expected-note {{'b_s' declared here}}
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    full = lm.barrier(count=2, prod=[math], cons=[math])
    with math:
        for k in lm.range(0, K // 64):
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)  # expected-error {{role 'math' overwrites stage k of 'a_s' when the ring wraps but never waits for the other warpgroups of role 'math' to release it}}
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)  # expected-error {{role 'math' overwrites stage k of 'b_s' when the ring wraps but never waits for the other warpgroups of role 'math' to release it}}
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
        lm.store_tile(C, coords=(0, 0), src=acc)

# -----
# A copy ahead whose slot the role's warps release on a barrier of their
# own: safe, but refused by the running count (one iteration, one stage),
# which does not yet let a wait on a release barrier run ahead of the
# role's own arrivals in one iteration. The role sync form
# (pass_refill_tma_own_reads.cake) is accepted. The note names the wait.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=2)
    got = lm.barrier(count=2, prod=[rows], cons=[rows], pipeline=ring)
    free = lm.barrier(count=2, prod=[rows], cons=[rows], init_count=4, pipeline=ring)
    with rows:
        lm.wait(free, stage=0)
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        for j in lm.range(0, 16):
            if j < 15:
                lm.wait(free, stage=j + 1)  # expected-note {{role 'rows' waits on 'free' here}}
                x_s.tma_load(X, coords=(0, j * 64 + 64), stage=j + 1, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.arrive(free, stage=j, per="warp")  # expected-error {{role 'rows' uses barrier 'free' at stage 'j', which is not its running count of uses (0, 1, 2, ...): another use in the same iteration names stage 'j+1', so two uses land in different phases of one iteration (one iteration, one stage)}}
            lm.store_tile(Y, coords=(j * 64, 0), src=x)
