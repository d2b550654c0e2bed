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
