# Near miss of fail_alias_tcgen05_commit.cake: the role waits on the
# commit's barrier before it stores over the MMA's operand. (Nothing reads
# the store back: a read of o_s after the commit is rejected by
# safety.read-after-release, which takes the commit as releasing the
# operand's bytes to a producer; conservative, left for later.)
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
# RUN: %cakec --target=sm_100a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def wait_then_store(lm):
    pool = lm.smem(131072)
    q_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    out = lm.regs(shape=(128, 64), dtype=lm.bf16, role=math)
    done = lm.barrier(count=1, prod=[math], cons=[math], init_count=1)
    with math:
        out = lm.fill(out, 1.0)
        q_s.store(out)
        k_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        lm.mma(acc, q_s, k_s.T, init=True)
        lm.commit(done, stage=0)
        lm.wait(done, stage=0)            # the MMA's reads are over for every thread
        o_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
