# Rows gathered through an index table, as an embedding lookup or a paged KV
# cache reads them: Y[r, :] = X[IDX[r], :] for r < M, with X (V, N) and Y
# (M, N) bf16 and IDX (M,) i32, its values in [0, V).
#
# Each block takes ROWS rows, one warp each (the role family w: member i
# takes row block * ROWS + i). A warp reads its row's index from device
# memory (lm.load_scalar, declared in [0, V): the launcher bounds the row it
# addresses by that range, and an index outside it stops the kernel with a
# message naming the read) and moves the row straight through its registers,
# 16 bytes per lane per access. M a multiple of ROWS (the launcher refuses
# others).
# target: sm_90a
N = 4096
ROWS = 8

@cake.schedule(grid=((M + ROWS - 1) // ROWS,))
def gather_rows(lm, X: LM.tensor2d[V, N], IDX: LM.tensor1d[M], Y: LM.tensor2d[M, N], V: LM.i32, M: LM.i32):
    w = lm.roles(warps=[[0], [1], [2], [3], [4], [5], [6], [7]])
    with w as i:
        r = lm.block_id(0) * ROWS + i
        src = lm.load_scalar(IDX, coords=(r,), lo=0, hi=V)
        x = lm.load_tile(X, coords=(0, src), shape=(1, N), dtype=lm.bf16)
        lm.store_tile(Y, coords=(0, r), src=x)
