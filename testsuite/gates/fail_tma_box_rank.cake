# A box of higher rank than its tensor.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma1d):  # expected-note {{'A' declared here}}
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(8, 64), dtype=lm.bf16)
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        v.tma_load(A, coords=(0,), barrier=b)  # expected-error {{tensor 'A' has rank 1 but the box 'v' has rank 2}}
        lm.wait(b, stage=0)
