# Near miss of fail_alias_tx_hop.cake: a role sync between the warps'
# loads and the TMA load whose arrival hands the bytes over.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# expected-no-diagnostics
@cake.schedule()
def tx_hop(lm, Q: LM.tensor2d, Kt: LM.tensor2d, O: LM.tensor2d, P: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B", alias=True)
    p_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    r = lm.regs(shape=(64, 64), dtype=lm.bf16, role=load)
    ready = lm.barrier(count=1, prod=[load], cons=[math], init_count=256)
    done = lm.barrier(count=1, prod=[math], cons=[load], init_count=1)
    with load:
        q_s.cp_async(Q, coords=(0, 0), barrier=ready)
        k_s.cp_async(Kt, coords=(0, 0), barrier=ready)
        lm.wait(done, stage=0)
        r = lm.fill(r, 1.0)
        o_s.store(r)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, 0))
        x2 = p_s.load()
        lm.store_tile(O, coords=(0, 0), src=x2)
    with math:
        lm.wait(ready, stage=0)
        x = k_s.load()
        lm.store_tile(O, coords=(0, 0), src=x)
        lm.role_sync()
        p_s.tma_load(P, coords=(0, 0), barrier=done)
