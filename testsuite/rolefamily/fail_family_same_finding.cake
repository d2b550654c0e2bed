# One finding in a member body reached through both members of a role
# family (the bodies are one text) is shown once: the stage 'j * j' has no
# form the analyses relate, for wg[0] and wg[1] alike.
# RUN: %expect-exit 1 %cakec -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck %s
# CHECK-COUNT-1: :20:33: error: cannot prove which stage 'j * j' names
# CHECK-NOT: cannot prove which stage
@cake.schedule()
def k(lm, A: LM.tma2d, T: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg)
    full = lm.barrier(count=2, prod=[load], cons=[wg])
    with load:
        for j in lm.range(0, 4):
            a_s.tma_load(A, coords=(0, j * 64), stage=j, barrier=full)
    with wg as i:
        for j in lm.range(0, 4):
            lm.wait(full, stage=j * j)
            lm.mma(acc, a_s[j], a_s[j].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
