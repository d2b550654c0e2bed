# Shared reads (testsuite/crossblock/shared_value_reads.cake): both roles
# read LEN[b], then LEN[LEN[b]], and loop that many times over a ring; each
# read is one value for the block (load_scalar.test lowers it).
@cake.schedule(grid=(B,))
def two(lm, X: LM.tma2d[R, 64], LEN: LM.tensor1d[B], Y: LM.tensor2d[M, 64], B: LM.i32, R: LM.i32, M: LM.i32):
    pool = lm.smem(2 * 64 * 64 * 2)
    x_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=4, pipeline=ring)
    b = lm.block_id(0)
    with load:
        at = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        n = lm.load_scalar(LEN, coords=(at,), lo=0, hi=R // 64 + 1)
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)
            x_s.tma_load(X, coords=(0, j * 64), stage=j, barrier=full)
    with math:
        at = lm.load_scalar(LEN, coords=(b,), lo=0, hi=B)
        n = lm.load_scalar(LEN, coords=(at,), lo=0, hi=R // 64 + 1)
        acc = lm.fill(acc, 0.0)
        for j in lm.range(0, n):
            lm.wait(full, stage=j)
            acc = acc + lm.cast(x_s.load(stage=j), lm.f32)
            lm.arrive(empty, stage=j, per="warp")
        lm.store_tile(Y, coords=(0, b * 64), src=lm.cast(acc, lm.bf16))

