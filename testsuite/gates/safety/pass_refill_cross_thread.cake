# Near misses of fail_refill_cross_thread.cake: a role sync after the read
# and before the refill (in the loop's body, or right before the copy).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 1024], Y: LM.tensor2d[64, 1024]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 8):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.role_sync()
            lm.store_tile(Y, coords=(j * 64, 0), src=x)

# -----
@cake.schedule()
def k(lm, X: LM.tensor2d[128, 64], Y: LM.tensor2d[128, 64]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows], init_count=128)
    with rows:
        x_s.cp_async(X, coords=(0, 0), stage=0, barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load()
        lm.role_sync()
        x_s.cp_async(X, coords=(0, 64), stage=1, barrier=got)
        lm.wait(got, stage=1)
        y = x_s.load()
        lm.store_tile(Y, coords=(0, 0), src=x)
        lm.store_tile(Y, coords=(0, 64), src=y)

# -----
# A copy and a read of the same stage in each iteration of a loop no
# longer than the ring: no slot is named by two iterations, so nothing
# carries from one to the next.
@cake.schedule()
def k(lm, X: LM.tensor2d[64, 256], Y: LM.tensor2d[64, 256]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=4, prod=[rows], cons=[rows], init_count=128)
    with rows:
        for j in lm.range(0, 4):
            x_s.cp_async(X, coords=(j * 64, 0), stage=j, barrier=got)
            lm.wait(got, stage=j)
            x = x_s.load(stage=j)
            lm.store_tile(Y, coords=(j * 64, 0), src=x)
