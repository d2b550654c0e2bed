# On sm_100a register tiles take tcgen05's lanes layout (one row per
# thread), whose stores write a tile as it is: a transposed store does not
# lower there, and says so (found by review, helper-30, 2026-12-05: the
# lowering had stored it untransposed).
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
@cake.schedule()
def k(lm, Y: LM.tma2d):
    pool = lm.smem(65536)
    t_s = pool.view(offset=0, shape=(128, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v, transpose=True)  # expected-error {{a transposed store of 'v' into 't_s' has no sm_100a lowering: tiles in the tcgen05 lanes layout are stored as they are, one row per thread}}
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_store(Y, coords=(0, 0))
        lm.tma_store_wait()
