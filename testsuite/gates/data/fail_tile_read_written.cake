# A tensor the kernel writes, read by a block outside the tiles its own role
# writes (data.tile-read-written): block b reads row b + 1, which block b + 1
# rewrites in the same launch (a halo read of a tensor updated in place); a
# TMA copy of a tile of C another block stores; a read of the whole tensor
# where each block writes its own rows. Near misses (in place, a part of the
# tile written, one block): pass_tile_read_written.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(M // 4 - 1,))
def k(lm, X: LM.tensor2d, M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 4 + 4), shape=(4, 256), dtype=lm.f32)  # expected-error {{'lm.load_tile' reads a tile of 'X', which the kernel also writes, outside the tiles its own role writes: a block may read elements another block of the launch is writing; read inside the tile the role writes in place, or take the data in another tensor}}
        lm.role_sync()
        lm.store_tile(X, coords=(0, lm.block_id(0) * 4), src=x)  # expected-note {{'X' is written here}}

# -----
@cake.schedule(grid=(M // 64, N // 64))
def k(lm, C: LM.tma2d, M: LM.i32, N: LM.i32):
    pool = lm.smem(8192)
    c_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    w = lm.role(warps=[0, 1, 2, 3])
    done = lm.barrier(count=1, prod=[w], cons=[w])
    with w:
        c_s.tma_load(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64 + 64), stage=0, barrier=done)  # expected-error {{'lm.tma_load' reads a tile of 'C', which the kernel also writes, outside the tiles its own role writes}}
        lm.wait(done, stage=0)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))  # expected-note {{'C' is written here}}
        lm.tma_store_wait()

# -----
@cake.schedule(grid=(M // 4,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        s = lm.load_tile(Y, coords=(0, 0), shape=(4, 256), dtype=lm.f32)  # expected-error {{'lm.load_tile' reads a tile of 'Y', which the kernel also writes, outside the tiles its own role writes}}
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 4), shape=(4, 256), dtype=lm.f32)
        lm.role_sync()
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 4), src=x + s)  # expected-note {{'Y' is written here}}
