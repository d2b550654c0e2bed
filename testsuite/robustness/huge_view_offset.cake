# Regression (FuzzPipeline, UBSan: signed overflow in the box-cut analysis of
# kernel facts, 2026-12-02): a TMA-loaded view at offset INT64_MAX beside
# another view; the overlap test saturates its ends. Diagnostics, no
# undefined behaviour (the sanitizer build halts on it).
# RUN: not %cakec -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck %s
# CHECK: error: view 'a_s' spans bytes [9223372036854775807, 9223372036854775807) of pool 'pool', which has 65536 bytes [data.view-overflow]
# CHECK-NOT: runtime error
@cake.schedule()
def k(lm, A: LM.tma2d[M, K], M: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=9223372036854775807, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0])
    full = lm.barrier(count=1, prod=[load], cons=[load])
    with load:
        a_s.tma_load(A, coords=(0, 0), barrier=full)
        b_s.tma_load(A, coords=(64, 0), barrier=full)
        lm.wait(full, stage=0)
