# Near misses of fail_fragment_alias.cake (found by review, 2026-12-05,
# refused by the first version of the alias comparison): h_s is an alias
# over stage 1 of the two-stage t_s only, so a store into stage 0 of t_s
# and a load of h_s touch disjoint bytes; lowered and assembled.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64]):
    pool = lm.smem(32768)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, stage=2)
    h_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.f32, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        h_s.store(v)
        lm.role_sync()
        t_s.store(v, stage=0, transpose=True)
        w = h_s.load()
        lm.store_tile(Y, coords=(0, 0), src=w)
