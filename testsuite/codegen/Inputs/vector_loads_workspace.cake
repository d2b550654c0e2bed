# A workspace tensor read only as accumulator-layout row vectors (testsuite/codegen/vector_loads.test):
# its rows need no 16-byte multiple, so the workspace layout does not ask for one.
@cake.schedule(grid=(M // 128, N // 64))
def wsv(lm, O: LM.tensor2d, M: LM.i32, N: LM.i32):
    W = lm.workspace(shape=(M, 1), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with math:
        r0 = lm.block_id(0) * 128
        c0 = lm.block_id(1) * 64
        s = lm.load_tile(W, coords=(0, r0), shape=(128, 1), dtype=lm.f32, layout="accumulator")
        f = lm.load_tile(O, coords=(c0, r0), shape=(128, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(O, coords=(c0, r0), src=f * s)
