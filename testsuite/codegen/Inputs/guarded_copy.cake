# A copy-ahead ring (testsuite/gates/safety/pass_prefetch_waits.cake's first
# form): two stages copied ahead, the copy of stage j + 2 guarded by
# `if j < 6` over 8 stages, so the last copy reads columns 1792 to 2047 of X.
@cake.schedule()
def guarded(lm, X: LM.tensor2d, Y: LM.tensor2d):
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
