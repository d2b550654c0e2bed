# Misspelt names, each with a fix-it to the name meant.
@cake.schedule()
def k(lm, A: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.veiw(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128b")
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r], init=1)
    with r:
        lm.wait(b, stage=KK)
