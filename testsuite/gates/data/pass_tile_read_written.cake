# Near misses of fail_tile_read_written.cake: a tensor read and written in
# place by many blocks (each reads the rows it rewrites), a part of the tile a
# role writes read back, and a single block reading what it writes.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(M // 4,))
def k(lm, X: LM.tensor2d, M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 4), shape=(4, 256), dtype=lm.f32)
        lm.store_tile(X, coords=(0, lm.block_id(0) * 4), src=x * 2.0)

# -----
@cake.schedule(grid=(M // 8,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 8), shape=(8, 256), dtype=lm.f32)
        y = lm.load_tile(X, coords=(0, lm.block_id(0) * 8 + 4), shape=(4, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 4), src=y)
        lm.role_sync()
        lm.store_tile(X, coords=(0, lm.block_id(0) * 8), src=x * 2.0 + 1.0)

# -----
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[8, 256]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 4), shape=(4, 256), dtype=lm.f32)
        lm.role_sync()
        lm.store_tile(X, coords=(0, 0), src=x)
