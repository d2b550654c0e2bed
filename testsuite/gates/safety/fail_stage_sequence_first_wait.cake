# A role's first wait on a barrier names stage 0: before any use there is no
# "stage just used" to wait on again, and stage -1's parity is the one a fresh
# mbarrier reports complete, so the wgmma would read a_s and b_s before the
# copies land (it was accepted as the stage just used). And a role that alone
# signals a barrier waits for its own signals: after its cp.async completes
# stage 0 on 'got', a wait on stage 1 is a phase nothing signals (it was
# accepted as the next stage of one running count of signals and waits).
# Near misses: pass_stage_sequence_first_wait.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])  # expected-note {{barrier 'ready' declared here}}
    with load:
        a_s.tma_load(A, coords=(0, 0), barrier=ready)
        b_s.tma_load(B, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=-1)  # expected-error {{role 'math' uses barrier 'ready' at stage '-1', which is not its running count of uses (0, 1, 2, ...): the next stage of the sequence is 0}}
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
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)  # expected-note {{barrier 'got' declared here}}
    with math:
        z_s.cp_async(Z, coords=(0, 0), barrier=got)
        lm.wait(got, stage=1)  # expected-error {{role 'math' uses barrier 'got' at stage '1', which is not its running count of uses (0, 1, 2, ...): role 'math' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage 1 is not one}}
        z = z_s.load()
        z_s.store(z * 2.0)
        lm.role_sync()
        z_s.copy_to(Y, coords=(0, 0))

# -----
# the same wait in a loop of one iteration (found by review)
@cake.schedule()
def k(lm, Z: LM.tensor2d[128, 128], Y: LM.tensor2d[128, 128], N: LM.i32):
    pool = lm.smem(65536)
    z_s = pool.view(offset=0, shape=(128, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)  # expected-note 2 {{barrier 'got' declared here}}
    with math:
        z_s.cp_async(Z, coords=(0, 0), barrier=got)
        for i in lm.range(1, 2):
            lm.wait(got, stage=i)  # expected-error {{role 'math' alone signals it, so a wait must name the stage of a signal it gave before, in the same iteration; stage i is not one}}
        z = z_s.load()  # expected-error {{role 'math' reads stage 0 of 'z_s' but never waits on barrier 'got' for that stage}}
        z_s.store(z * 2.0)
        lm.role_sync()
        z_s.copy_to(Y, coords=(0, 0))
