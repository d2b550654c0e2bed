# Near miss of fail_alias_mma_sync.cake: the role syncs after its
# mma.sync and before it stores over the B operand's bytes.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
# RUN: %cakec -verify -fsyntax-only --target=sm_120a %s
# RUN: %cakec --target=sm_80 %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def write_over_b(lm, Q: LM.tensor2d, Kt: LM.tensor2d, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=256)
    with load:
        q_s.cp_async(Q, coords=(0, 0), barrier=ready)
        k_s.cp_async(Kt, coords=(0, 0), barrier=ready)
    with math:
        lm.wait(ready, stage=0)
        lm.mma(s, q_s, k_s.T, init=True)
        lm.role_sync()                    # every warp's reads of k_s are over
        out = lm.cast(s, lm.bf16)
        o_s.store(out)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
