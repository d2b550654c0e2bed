# A staged view used without naming a stage.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)  # expected-note {{'a' declared here}} expected-note {{'a' declared here}}
    acc = lm.regs(shape=(64, 64), dtype=lm.f32)
    r = lm.role(warps=[0, 1, 2, 3])
    full = lm.barrier(count=2, prod=[r], cons=[r])
    with r:
        for s in lm.range(0, n):
            a.tma_load(A, coords=(0, 0), barrier=full)  # expected-error {{'a' has 2 stages; say which one, e.g. 'stage=s'}}
            lm.mma(acc, a, a[s].T)  # expected-error {{'a' has 2 stages; say which one, e.g. 'a[s]'}}
