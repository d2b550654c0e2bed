@cake.schedule()
def k(lm, X: LM.tensor2d[4, 3072], Y: LM.tensor2d[4, 2048]):
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
