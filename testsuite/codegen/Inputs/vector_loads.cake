# Row (M x 1) and column (1 x N) vectors loaded from global tensors straight
# into the accumulator layout (lm.load_tile, layout="accumulator"), one
# element per access: O = O * s * t with a row scale s and a column scale t,
# the form of a row-wise scaled GEMM's epilogue (testsuite/codegen/
# vector_loads.test; run on the H200 by harness/fp8/vectors_check.py).
@cake.schedule(grid=(M // 128, N // 64))
def vector_loads(lm, S: LM.tensor2d, T: LM.tensor2d, O: LM.tensor2d, M: LM.i32, N: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with math:
        r0 = lm.block_id(0) * 128
        c0 = lm.block_id(1) * 64
        s = lm.load_tile(S, coords=(0, r0), shape=(128, 1), dtype=lm.f32, layout="accumulator")
        t = lm.load_tile(T, coords=(c0, 0), shape=(1, 64), dtype=lm.bf16, layout="accumulator")
        f = lm.load_tile(O, coords=(c0, r0), shape=(128, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(O, coords=(c0, r0), src=f * s * lm.cast(t, lm.f32))
