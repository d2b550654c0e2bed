# More transaction bytes per phase than an mbarrier can count.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d):  # expected-error {{needs 1310728 bytes of shared memory}} expected-note {{'A' declared here}}
    pool = lm.smem(1310720)
    v = pool.view(offset=0, shape=(5, 256, 256), dtype=lm.f32)
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])  # expected-error {{barrier 'b' expects 1310720 transaction bytes per phase; the mbarrier limit is 1048575}}
    with r:
        v.tma_load(A, coords=(0, 0), barrier=b)  # expected-error {{tensor 'A' has rank 2 but the box 'v' has rank 3}}
        lm.wait(b, stage=0)
