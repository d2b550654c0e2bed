# safety.alias-race within a role on sm_100a: tcgen05 work reads shared
# memory until the barrier its lm.commit signals completes, so the role's
# own store over those bytes through an alias waits on that barrier first,
# in a role of any size (found by review, helper-46, 2026-12-07: accepted;
# the same store through the MMA's own view was already rejected by
# safety.overwrite-in-flight). Near miss: pass_alias_tcgen05_commit.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
@cake.schedule()
def commit_nowait(lm, O: LM.tensor2d):
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
        lm.mma(acc, q_s, k_s.T, init=True)  # expected-note {{'k_s' read here}}
        lm.commit(done, stage=0)
        lm.role_sync()
        o_s.store(out)  # expected-error {{role 'math' writes 'o_s' while role 'math' may still be reading, through its tcgen05 MMA, 'k_s', which shares those bytes: the MMA reads shared memory until the barrier its lm.commit signals completes; an lm.wait on that barrier before the write makes the read come first}}
        lm.fence_proxy()
        lm.role_sync()
        lm.wait(done, stage=0)
        o_s.copy_to(O, coords=(0, 0))
