# Regression guard for data.output-gap's arithmetic (analysis/Coverage.cpp):
# coordinates whose coefficients and constants sit at the edge of int64 are
# judged or left alone, never overflowed. This test also runs in the
# sanitizer build, which halts on undefined behaviour.
# RUN: not %cakec -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck %s
# CHECK-NOT: runtime error
# CHECK: error: the writes of tensor 'C' leave part of it unwritten: no write covers elements [0, 64) x [64, 9223372028264841220) (outermost first), nor the same elements of any other 9223372028264841218 x 9223372028264841220 step
# CHECK-NOT: runtime error
# Rows below 0 hold no element: 'E' (written only there) is not judged.
# CHECK-NOT: tensor 'E'
# CHECK-NOT: internal compiler error
@cake.schedule(grid=(4, 4))
def k(lm, C: LM.tma2d, D: LM.tma2d, E: LM.tma2d):
    pool = lm.smem(65536)
    c_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        c_s.tma_store(C, coords=(lm.block_id(1) * 2147483647 * 2147483647 * 2 + lm.block_id(1) * 2, lm.block_id(0) * 2147483647 * 2147483647 * 2))
        c_s.tma_store(C, coords=(lm.block_id(1) * -2147483648 * 2147483647 * 2147483647, 2147483647))
        c_s.tma_store(D, coords=(2147483647, -2147483648))
        c_s.tma_store(D, coords=(0, 0))
        c_s.tma_store(E, coords=(lm.block_id(1) * 2147483647 * 2147483647 + 2147483647, -2147483648))
        lm.tma_store_wait()
