# safety.alias-race across roles: the hand-off of bytes one role read to
# another role that writes over them through an alias needs an arrival that
# speaks for every unit whose reads it hands over. A role-wide arrive
# (per="role": one thread) right after each warp's mma.sync, or after each
# warp's plain loads, lets the writer in while other warps still read (found
# by review, helper-44, 2026-12-07: accepted since the MMA's access ended at
# the MMA on mma.sync targets; the load form was accepted before too).
# An unsynced role-wide arrive on a barrier is not made good by a synced
# one on the same barrier later (stages are not told apart: the waiter's
# phase may be the one the early arrive completes; found by review,
# helper-45). Near misses: pass_alias_hand_off_scope.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
# RUN: %cakec -verify -fsyntax-only --target=sm_120a %s
@cake.schedule()
def role_arrive(lm, Q: LM.tensor2d, Kt: LM.tensor2d, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    r = lm.regs(shape=(64, 64), dtype=lm.bf16, role=load)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=256)
    done = lm.barrier(count=1, prod=[math], cons=[load], init_count=1)
    with load:
        q_s.cp_async(Q, coords=(0, 0), barrier=ready)
        k_s.cp_async(Kt, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        r = lm.fill(r, 1.0)
        o_s.store(r)  # expected-error {{role 'load' writes 'o_s' while role 'math' may still be reading 'k_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.arrive(done, stage=0)

@cake.schedule()
def generic_load_role_arrive(lm, Q: LM.tensor2d, Kt: LM.tensor2d, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    r = lm.regs(shape=(64, 64), dtype=lm.bf16, role=load)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=256)
    done = lm.barrier(count=1, prod=[math], cons=[load], init_count=1)
    with load:
        q_s.cp_async(Q, coords=(0, 0), barrier=ready)
        k_s.cp_async(Kt, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        r = lm.fill(r, 1.0)
        o_s.store(r)  # expected-error {{role 'load' writes 'o_s' while role 'math' may still be reading 'k_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
    with math:
        lm.wait(ready, stage=0)
        x = k_s.load()  # expected-note {{'k_s' read here}}
        lm.store_tile(O, coords=(0, 0), src=x)
        lm.arrive(done, stage=0)

@cake.schedule()
def two_arrives(lm, Q: LM.tensor2d, Kt: LM.tensor2d, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    r = lm.regs(shape=(64, 64), dtype=lm.bf16, role=load)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=256)
    done = lm.barrier(count=2, prod=[math], cons=[load], init_count=1)
    with load:
        q_s.cp_async(Q, coords=(0, 0), barrier=ready)
        k_s.cp_async(Kt, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        r = lm.fill(r, 1.0)
        o_s.store(r)  # expected-error {{role 'load' writes 'o_s' while role 'math' may still be reading 'k_s', which shares those bytes: no barrier orders the two each way (the later waits for a barrier the earlier signals after its access is over)}}
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
        lm.wait(done, stage=1)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.arrive(done, stage=0)
        lm.role_sync()
        lm.arrive(done, stage=1)
