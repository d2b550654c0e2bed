# blocks_per_sm= on sm_89: a multiprocessor has 1536 resident threads, not 2048, and 24 blocks, not 32
# (blocks_per_sm.cake has the same kernel on sm_90a, where 8 blocks fit).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_89 %s
# fail: 8 blocks of 256 threads.
@cake.schedule(grid=(4,), blocks_per_sm=8)  # expected-error {{which need 2048 threads (8 x 256); a multiprocessor of sm_89 has 1536 resident threads}}
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# pass: 6 blocks, 1536 threads.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=6)
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# fail: sm_89 holds at most 24 blocks.
@cake.schedule(grid=(4,), blocks_per_sm=25)  # expected-error {{which need 25 resident blocks; a multiprocessor of sm_89 has room for 24 blocks}}
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
# -----
# pass: 24 blocks of one warp.
# expected-no-diagnostics
@cake.schedule(grid=(4,), blocks_per_sm=24)
def k(lm, X: LM.tensor2d, Y: LM.tensor2d):
    w = lm.role(warps=[0])
    with w:
        x = lm.load_tile(X, coords=(0, lm.block_id(0)), shape=(1, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, lm.block_id(0)), src=x)
