# mma.sync reads its stage synchronously; releasing the stage before the
# read lets the producer overwrite it while it is read.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule(grid=(M // 128, N // 128))
def k(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(4 * 256 * 32 * 2 + 128 * 128 * 2)
    a_s = pool.view(offset=0, shape=(128, 32), dtype=lm.bf16, stage=4, swizzle="64B")  # expected-note {{'a_s' declared here}}
    b_s = pool.view(offset=4 * 128 * 32 * 2, shape=(128, 32), dtype=lm.bf16, stage=4, swizzle="64B")  # expected-note {{'b_s' declared here}}
    c_s = pool.view(offset=4 * 256 * 32 * 2, shape=(128, 128), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0])
    math = lm.role(warps=[1, 2, 3, 4, 5, 6, 7, 8])
    acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=64, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    with load:
        for k in lm.range(0, K // 32):
            lm.wait(empty, stage=k)
            a_s.cp_async(A, coords=(k * 32, lm.block_id(0) * 128), stage=k, barrier=full)  # expected-error {{role 'load' overwrites stage k of 'a_s' when the ring wraps but never waits for role 'math' to release it}}
            b_s.cp_async(B, coords=(k * 32, lm.block_id(1) * 128), stage=k, barrier=full)  # expected-error {{role 'load' overwrites stage k of 'b_s' when the ring wraps but never waits for role 'math' to release it}}
    with math:
        for k in lm.range(0, K // 32):
            lm.wait(full, stage=k)
            lm.arrive(empty, stage=k, per="warp")  # expected-note {{'a_s' released here}} expected-note {{'b_s' released here}}
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))  # expected-error {{role 'math' reads stage k of 'a_s' after releasing it (arrive on 'empty'): the producer may already be overwriting it}} expected-error {{role 'math' reads stage k of 'b_s' after releasing it (arrive on 'empty'): the producer may already be overwriting it}}
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.role_sync()
        c_s.copy_to(C, coords=(lm.block_id(1) * 128, lm.block_id(0) * 128))
