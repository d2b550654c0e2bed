# Indexing or staging a single-stage view.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    c = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)  # expected-note {{'c' declared here}} expected-note {{'c' declared here}}
    acc = lm.regs(shape=(64, 64), dtype=lm.f32)
    r = lm.role(warps=[0, 1, 2, 3])
    full = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        lm.mma(acc, c[0], c)  # expected-error {{'c' has a single stage and cannot be indexed by stage}}
        c.tma_store(A, coords=(0, 0), stage=0)  # expected-error {{'c' has a single stage and cannot be indexed by stage}}
        # A copy completing on a barrier may name a stage of a single-stage
        # view: the stage counts the barrier's phases (a buffer reloaded per tile).
        c.tma_load(A, coords=(0, 0), stage=0, barrier=full)
