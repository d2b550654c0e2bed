# A role that issues every copy of a ring first, then waits for each stage
# in order in a later loop over the same iterations (a prefetch: the
# staged softmax of examples/softmax_sm90a.cake), and reads the stages
# again in loops after that: each wait names a stage the role signalled
# before, within one lap of the ring, so its phase is the stage's latest.
# At the end, loops that copy ahead of themselves (the single-role
# multistage cp.async loop).
# Broken variants: fail_prefetch_waits.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
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
        for i in lm.range(0, 4):
            z = x_s.load(stage=i, layout="rows")
            lm.store_tile(Z, coords=(i * 256, 0), src=z)

# -----
# The same over iterations 1 .. 4 naming stages j - 1.
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[4, 1024]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(1, 5):
            x_s.cp_async(X, coords=(j * 256 - 256, 0), stage=j - 1, barrier=got)
        for j in lm.range(1, 5):
            lm.wait(got, stage=j - 1)
            x = x_s.load(stage=j - 1, layout="rows")
            lm.store_tile(Y, coords=(j * 256 - 256, 0), src=x)

# -----
# Run-time bounds with a constant trip count (found safe by review).
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(n, n + 4):
            x_s.cp_async(X, coords=(j * 64 - n * 64, 0), stage=j - n, barrier=got)
        for j in lm.range(n, n + 4):
            lm.wait(got, stage=j - n)
            x = x_s.load(stage=j - n)
            lm.store_tile(Y, coords=(j * 64 - n * 64, 0), src=x)

# -----
# Per tile of a persistent loop (t * 4 + j, the stages of a tile one lap of
# the ring): each tile's copies, then its waits, each tile waited for in full
# before the next tile's copies, and the role synced before a tile's copies
# overwrite slots its threads read.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024], Z: LM.tensor2d[64, 1024], n: LM.i32):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for t in lm.range(0, n):
            for j in lm.range(0, 4):
                x_s.cp_async(X, coords=(j * 256, t * 4), stage=t * 4 + j, barrier=got)
            for j in lm.range(0, 4):
                lm.wait(got, stage=t * 4 + j)
                x = x_s.load(stage=t * 4 + j, layout="rows")
                lm.store_tile(Y, coords=(j * 256, t * 4), src=x)
            for i in lm.range(0, 4):
                z = x_s.load(stage=t * 4 + i, layout="rows")
                lm.store_tile(Z, coords=(i * 256, t * 4), src=z)
            lm.role_sync()

# -----
# A refill loop: each iteration waits for a stage, reads it, syncs the role
# and copies the next lap into the same slot (stage j + 4 on a ring of 4);
# a later loop waits for the refilled stages in order (j over range(4, 8)).
# Each refill follows the wait that completed its slot's older phase.
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
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# The refill written through an alias of the ring with the same slots (one
# offset, stage count and size): the same buffer under another name.
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 1024], Z: LM.tensor2d[4, 1024]):
    pool = lm.smem(10240)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    y_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4, alias=True)
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
            y_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)
        for j in lm.range(4, 8):
            lm.wait(got, stage=j)
            x = y_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 1024, 0), src=x)

# -----
# A loop that copies ahead of itself (the single-role multistage loop of cp.async kernels, found rejected by review 2026-12-06): stages 0 and 1 copied before the loop, then each iteration waits for stage j, reads it, and copies stage j + 2 into a ring of 8, the last two iterations' copies left out by a guard
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 6:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)

# -----
# The same a whole lap ahead: each iteration copies stage j + 4 into the slot it has just read (after role_sync), on a ring of 4
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < 4:
                x_s.cp_async(X, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=got)

# -----
# The copy issued before the wait in the iteration, three ahead on a ring of 4
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 2048], Y: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 3):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, 8):
            if j < 5:
                x_s.cp_async(X, coords=(j * 256 + 768, 0), stage=j + 3, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()

# -----
# A copy-ahead loop whose copies run to its end (a lap ahead, over two laps of the ring), then a drain loop waiting for the last four stages (found rejected by review 2026-12-06)
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 2048], Z: LM.tensor2d[4, 2048]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
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
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Z, coords=(j * 256 - 2048, 0), src=x)

# -----
# Copies a lap on over a loop of four on a ring of 8 (stages 4 to 7): the first lap still, so no release is needed
@cake.schedule()
def k(lm, A: LM.tma2d, Y: LM.tensor2d[4, 4096]):
    pool = lm.smem(16384)
    a_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    ring = lm.pipeline(stages=8)
    full = lm.barrier(count=8, prod=[load], cons=[math], pipeline=ring)
    with load:
        for j in lm.range(0, 4):
            a_s.tma_load(A, coords=(j * 256, 0), stage=j, barrier=full)
        for j in lm.range(0, 4):
            a_s.tma_load(A, coords=(j * 256 + 1024, 0), stage=j + 4, barrier=full)
    with math:
        for j in lm.range(0, 8):
            lm.wait(full, stage=j)
            x = a_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)

# -----
# The copy-ahead loop over a run-time count bounded below by d (lm.max(2, n)): at least d iterations, so every copy before the loop is waited for
@cake.schedule()
def k(lm, X: LM.tensor2d[4, 4096], Y: LM.tensor2d[4, 4096], n: LM.i32):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, stage=8)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=8, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 2):
            x_s.cp_async(X, coords=(j * 256, 0), stage=j, barrier=got)
        for j in lm.range(0, lm.max(2, n)):
            lm.wait(got, stage=j)
            x = x_s.load(stage=j, layout="rows")
            lm.store_tile(Y, coords=(j * 256, 0), src=x)
            lm.role_sync()
            if j < lm.max(2, n) - 2:
                x_s.cp_async(X, coords=(j * 256 + 512, 0), stage=j + 2, barrier=got)
