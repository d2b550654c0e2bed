# cp.async moves 16-byte chunks: a tile whose rows are not a multiple of 16
# bytes (of the swizzle span when swizzled) has no lowering, and says why.
# RUN: %cakec -verify --target=sm_80 --emit=cuda %s
# The check alone reports the same (-fsyntax-only runs the lowering).
# RUN: %cakec -verify --target=sm_80 -fsyntax-only %s
@cake.schedule(grid=(M // 64,))
def k(lm, A: LM.tensor2d, M: LM.i32):
    pool = lm.smem(4096)
    a_s = pool.view(offset=0, shape=(64, 4), dtype=lm.bf16)
    load = lm.role(warps=[0])
    full = lm.barrier(count=1, prod=[load], cons=[load], init_count=32)
    with load:
        a_s.cp_async(A, coords=(0, lm.block_id(0) * 64), barrier=full)  # expected-error {{a copy of the view 'a_s' (64x4) has no sm_80 lowering: copies move 16-byte chunks: a row must be a multiple of 16 bytes, and of the swizzle span when swizzled}}
        lm.wait(full, stage=0)
