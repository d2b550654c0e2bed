# Copies of one barrier stage in two statement lists (here one under an
# `if`) each get their own arrive.expect_tx in the generated code, so the
# arrival count the gate proves is the one codegen emits: the analysis layer
# groups copies once for both. The branch makes the count unproven.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a --emit=cuda -Wno-error=unproven %s 2>/dev/null | FileCheck %s
# CHECK-COUNT-2: cake_mbar_arrive_expect_tx(
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)  # expected-error {{cannot prove that barrier 'full' gets 1 arrival(s) per phase}} expected-error {{cannot derive the transaction bytes of barrier 'full'}}
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            if K > 0:
                b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
