# TMA, cluster ranks and register budgets do not exist on sm_80.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule()
def k(lm, A: LM.tma1d):
    pool = lm.smem(1024)
    v = pool.view(offset=0, shape=(64,), dtype=lm.f32)
    r = lm.role(warps=[0], regs=40)  # expected-error {{'setmaxnreg (a role's regs=)' is not available on sm_80; it exists on sm_90a, sm_100a, sm_103a, sm_120a, sm_121a}}
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        v.tma_load(A, coords=(lm.cluster_rank(),), barrier=b)  # expected-error {{'lm.tma_load' is not available on sm_80; it exists on sm_90a, sm_100a, sm_103a, sm_120a, sm_121a}} expected-error {{'lm.cluster_rank' is not available on sm_80}}
        lm.wait(b, stage=0)
