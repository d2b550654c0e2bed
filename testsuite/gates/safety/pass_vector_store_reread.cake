# Near misses of fail_vector_store_reread.cake: a role sync between the
# vector's store (one writer per element) and its read by every thread.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(M // 64,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    stats = lm.workspace(shape=(M, 1), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(stats, coords=(0, lm.block_id(0) * 64), src=lm.rowmax(x))
        lm.role_sync()
        m = lm.load_tile(stats, coords=(0, lm.block_id(0) * 64), shape=(64, 1), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=m)

# -----
# a column vector: one quad of warp 0 writes, every warp reads
@cake.schedule(grid=(M // 64,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    cols = lm.workspace(shape=(M // 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        t = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(1, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(cols, coords=(0, lm.block_id(0)), src=t * 2.0)
        lm.role_sync()
        u = lm.load_tile(cols, coords=(0, lm.block_id(0)), shape=(1, 64), dtype=lm.f32, layout="accumulator")
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=x * u)
