# Near misses of fail_refill_tma_own_reads.cake: the role's warps release
# each slot through a barrier (one arrival per warp) that the copy waits
# for, or a role sync in the loop lies between the reads and the next copy
# (after the read, or before the copy), and (review, helper-52) the forms
# below: a copy ahead after a sync at the top of the iteration, a sync
# between the wait and the read when the copy is a lap later, and a sync
# at the end of a loop's body before a copy after the loop.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=2)
    got = lm.barrier(count=2, prod=[rows], cons=[rows], pipeline=ring)
    free = lm.barrier(count=2, prod=[rows], cons=[rows], init_count=4, pipeline=ring)
    with rows:
        for j in lm.range(0, 16):
            lm.wait(free, stage=j)
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.arrive(free, stage=j, per="warp")
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        for j in lm.range(0, 16):
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.role_sync()
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        for j in lm.range(0, 16):
            lm.role_sync()
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
# One warp: its loads have returned before its elected lane issues the copy.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[128, 256]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(8, 256), dtype=lm.f32, stage=2)
    rows = lm.role(warps=[0])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        for j in lm.range(0, 16):
            x_s.tma_load(X, coords=(0, j * 8), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 8, 0), src=x)

# -----
# Outside loops: a role sync between the read and the second copy, or a
# copy into the other slot of two.
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[128, 64]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows])
    with rows:
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load()
        lm.role_sync()
        x_s.tma_load(X, coords=(0, 64), stage=1, barrier=got)
        lm.wait(got, stage=1)
        y = x_s.load()
        lm.store_tile(Y, coords=(0, 0), src=x)
        lm.store_tile(Y, coords=(64, 0), src=y)

# -----
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[128, 64]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load(stage=0)
        x_s.tma_load(X, coords=(0, 64), stage=1, barrier=got)
        lm.wait(got, stage=1)
        y = x_s.load(stage=1)
        lm.store_tile(Y, coords=(0, 0), src=x)
        lm.store_tile(Y, coords=(64, 0), src=y)

# -----
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        x_s.tma_load(X, coords=(0, 0), stage=0, barrier=got)
        for j in lm.range(0, 16):
            lm.role_sync()
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            if j < 15:
                x_s.tma_load(X, coords=(0, j * 64 + 64), stage=j + 1, barrier=got)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[1024, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        for j in lm.range(0, 16):
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)
            lm.wait(got, stage=j)
            lm.role_sync()
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tma2d, Y: LM.tensor2d[128, 64], Z: LM.tensor2d[64, 64]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=2, prod=[rows], cons=[rows])
    with rows:
        for j in lm.range(0, 2):
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.role_sync()
            lm.store_tile(Y, coords=(j * 64, 0), src=x)
        x_s.tma_load(X, coords=(0, 128), stage=2, barrier=got)
        lm.wait(got, stage=2)
        y = x_s.load(stage=2)
        lm.store_tile(Z, coords=(0, 0), src=y)
