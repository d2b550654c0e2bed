# A value read from memory (lm.load_scalar) comes from a tensor no block of
# the launch writes: one the kernel itself writes, or a workspace, could
# change while blocks read it (data.value-read-written, with the write named).
# The near miss, pass_value_read_table.cake, reads its table and writes
# another tensor in place.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=((M + 3) // 4,))
def k(lm, T: LM.tensor2d[M, 256], Y: LM.tensor2d[M, 256], M: LM.i32):
    w = lm.role(warps=[0, 1, 2, 3])
    with w:
        n = lm.load_scalar(T, coords=(0, lm.block_id(0)), lo=0, hi=M)  # expected-error {{'lm.load_scalar' reads its value from 'T', which the kernel writes: its elements may change while blocks read them; blocks hand values to each other through a workspace, with lm.atomic}}
        x = lm.load_tile(Y, coords=(0, n), shape=(4, 256), dtype=lm.i32)
        lm.store_tile(T, coords=(0, lm.block_id(0) * 4), src=x)  # expected-note {{'T' is written here}}

# -----
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    w = lm.workspace(shape=(M,), dtype=lm.i32)
    r = lm.role(warps=[0])
    with r:
        a = lm.load_scalar(w, coords=(lm.block_id(0),), lo=0, hi=M)  # expected-error {{'lm.load_scalar' reads its value from 'w', which is a workspace (blocks of this launch write it): its elements may change while blocks read them; blocks hand values to each other through a workspace, with lm.atomic}}
