# What the lowering refuses in lm.load_scalar, at the operation with what it
# reads instead: coordinates of another rank, a release order; and a table
# also copied as another element type (a tensor has one). A table blocks of
# the launch write is the data gate's (fail_value_read_written.cake).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(M,))
def k(lm, T: LM.tensor2d[M, 8], M: LM.i32):
    r = lm.role(warps=[0])
    with r:
        b = lm.load_scalar(T, coords=(lm.block_id(0),), lo=0, hi=M)  # expected-error {{a scalar read of 'T' has no sm_90a lowering: its coordinates name one element of the rank-2 tensor, 1 of them}}
        c = lm.load_scalar(T, coords=(0, lm.block_id(0)), lo=0, hi=M, order="release")  # expected-error {{a scalar read of 'T' has no sm_90a lowering: a read is relaxed or acquire}}

# -----
@cake.schedule(grid=((M + 3) // 4,))
def k(lm, T: LM.tensor2d[M, 256], Y: LM.tensor2d[M, 256], M: LM.i32):
    w = lm.role(warps=[0, 1, 2, 3])
    with w:
        x = lm.load_tile(T, coords=(0, lm.block_id(0) * 4), shape=(4, 256), dtype=lm.bf16)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 4), src=x)
        n = lm.load_scalar(T, coords=(0, lm.block_id(0)), lo=0, hi=M)  # expected-error {{a read of one element of 'T' as i32 has no sm_90a lowering: an earlier copy reads it as bf16; a tensor has one element type}}
