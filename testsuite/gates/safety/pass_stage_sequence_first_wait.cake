# Near misses of fail_stage_sequence_first_wait.cake: the first wait names
# stage 0 and a second wait on it (the stage just used) is fine; a role that
# alone signals 'got' waits on the stage its cp.async completes (0).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        a_s.tma_load(A, coords=(0, 0), barrier=ready)
        b_s.tma_load(B, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.wait(ready, stage=0)
        lm.mma(acc, a_s, b_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()

# -----
@cake.schedule()
def k(lm, Z: LM.tensor2d[128, 128], Y: LM.tensor2d[128, 128]):
    pool = lm.smem(65536)
    z_s = pool.view(offset=0, shape=(128, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    with math:
        z_s.cp_async(Z, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        z = z_s.load()
        z_s.store(z * 2.0)
        lm.role_sync()
        z_s.copy_to(Y, coords=(0, 0))
