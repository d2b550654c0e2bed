# Near misses of fail_alias_loop_carried_sm80.cake: a role sync after the
# MMA, before the loop's next store over its bytes.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
# RUN: %cakec --target=sm_80 %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def loop_carried(lm, O: LM.tensor2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    out = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    with math:
        out = lm.fill(out, 1.0)
        q_s.store(out)
        k_s.store(out)
        for i in lm.range(0, 2):
            o_s.store(out)
            lm.role_sync()
            lm.mma(s, q_s, k_s.T, init=True)
            out = lm.cast(s, lm.bf16)
            lm.role_sync()
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
