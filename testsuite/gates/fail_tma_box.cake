# A TMA box dimension above 256.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d):
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(2, 300), dtype=lm.bf16)  # expected-error {{the TMA box of 'v' is 300 along dimension 1; the limit is 256}} expected-error {{the inner TMA box dimension of 'v' is 600 bytes; it must be a multiple of 16}}
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        v.tma_load(A, coords=(0, 0), barrier=b)
        lm.wait(b, stage=0)
