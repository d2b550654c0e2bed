# safety.alias-race: where a wgmma's read of shared memory is over. A
# wgmma wait retires only committed groups, so a wait before the group's
# commit does not end the read (wait_before_commit), and a wait in a loop
# that may run no iteration may not run (wait_in_loop_maybe_empty); either
# way the hand-off after it comes too early (found by review, helper-46,
# 2026-12-07: both accepted).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def wait_before_commit(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tensor2d):
    pool = lm.smem(131072)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    r = lm.regs(shape=(128, 64), dtype=lm.bf16, role=load)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    done = lm.barrier(count=1, prod=[math], cons=[load], init_count=2)
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
        k_s.tma_load(Kt, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        r = lm.fill(r, 1.0)
        o_s.store(r)  # expected-error {{role 'load' writes 'o_s' while role 'math' may still be reading 'k_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.mma_wait(pending=0)
        lm.arrive(done, stage=0, per="warpgroup")
        lm.mma_commit()
        lm.mma_wait(pending=0)

@cake.schedule()
def wait_in_loop_maybe_empty(lm, Q: LM.tma2d, Kt: LM.tma2d, O: LM.tensor2d, n: LM.i32):
    pool = lm.smem(131072)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    s = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    r = lm.regs(shape=(128, 64), dtype=lm.bf16, role=load)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=1)
    done = lm.barrier(count=1, prod=[math], cons=[load], init_count=2)
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
        k_s.tma_load(Kt, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        r = lm.fill(r, 1.0)
        o_s.store(r)  # expected-error {{role 'load' writes 'o_s' while role 'math' may still be reading 'k_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.mma_commit()
        for j in lm.range(0, n):
            lm.mma_wait(pending=0)
        lm.arrive(done, stage=0, per="warpgroup")
