# A Hopper-sized pool is too big for sm_80.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule()
def k(lm):  # expected-error {{kernel 'k' needs 200000 bytes of shared memory (200000 B of pools and 0 B of mbarriers, with alignment); sm_80 allows 166912 per block}}
    pool = lm.smem(200000)
    v = pool.view(offset=0, shape=(16,), dtype=lm.f32)
    r = lm.role(warps=[0])
    frag = lm.regs(shape=(16,), dtype=lm.f32, role=r)
    with r:
        v.store(frag)
