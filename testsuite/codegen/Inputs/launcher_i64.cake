# A loop bound from an i64 scalar that the kernel narrows to int32_t (launcher_i64.test).
# target: sm_80
@cake.schedule(grid=(M // 128,))
def cp(lm, A: LM.tensor2d, C: LM.tensor2d, M: LM.i32, K: LM.i64):
    pool = lm.smem(32768)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    io = lm.role(warps=[0, 1, 2, 3])
    bar = lm.barrier(count=2, prod=[io], cons=[io], init_count=128)
    with io:
        for k in lm.range(0, K // 64):
            a.cp_async(A, coords=(k * 64, lm.block_id(0) * 128), stage=k, barrier=bar)
            lm.wait(bar, stage=k)
            lm.role_sync()
            a.copy_to(C, coords=(k * 64, lm.block_id(0) * 128), stage=k)
            lm.role_sync()
