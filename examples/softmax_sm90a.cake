# Row softmax: Y[i, :] = softmax(X[i, :]) for X (M x N, bf16), computed in
# f32 and written as bf16. Memory-bound: each element is read once and
# written once, so rows stream straight between global memory and registers
# (lm.load_tile in the rows layout: 16 bytes per lane and access, a warp 512
# consecutive bytes of a row) and never touch shared memory. A block of
# WARPS warps takes ROWS rows, SPLIT warps per row, each warp a contiguous
# N / SPLIT of its row; the maximum and the sum are row reductions over the
# warp's lanes (and, with SPLIT > 1, over the row's warps through a few
# bytes of shared memory). N / SPLIT f32 values per warp must fit the
# registers: up to 4096 (-DN=32768 -DWARPS=8 -DSPLIT=8 for long rows); N a
# multiple of 256 x SPLIT, M of ROWS (the launcher refuses others).
# STAGED=True stages the block's rows in shared memory instead (long rows):
# cp.async copies all of them at once, in N / CHUNK stages of CHUNK columns,
# each with its barrier; the role folds each stage's columns into a running
# maximum as it lands, then reads the stages twice more from shared memory
# (view.load in the rows layout): for the sum, then for the output. Only a
# chunk is in registers, so BLOCKS blocks of ROWS x N x 2 bytes share a
# multiprocessor and one block's copies overlap another's arithmetic
# (-DN=32768 -DWARPS=8 -DSPLIT=8 -DSTAGED=True -DBLOCKS=3).
# target: sm_90a
N = 4096
WARPS = 4                     # warps of the block (4, 8 or 16)
SPLIT = 1                     # warps per row: each holds N / SPLIT of it
ROWS = WARPS // SPLIT         # rows per block
STAGED = False                # rows through shared memory, CHUNK columns at a time
CHUNK = 2048                  # columns per stage (STAGED): a multiple of 256 x SPLIT dividing N
BLOCKS = 1                    # blocks per multiprocessor it is built for (blocks_per_sm=)
LOG2E = 1.4426950408889634

@cake.schedule(grid=((M + ROWS - 1) // ROWS,), blocks_per_sm=BLOCKS)
def softmax_rows(lm, X: LM.tensor2d[M, N], Y: LM.tensor2d[M, N], M: LM.i32):
    if WARPS == 16:
        rows = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    elif WARPS == 8:
        rows = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    else:
        rows = lm.role(warps=[0, 1, 2, 3])
    if STAGED:
        pool = lm.smem(ROWS * N * 2)
        x_s = pool.view(offset=0, shape=(ROWS, CHUNK), dtype=lm.bf16, stage=N // CHUNK)
        got = lm.barrier(count=N // CHUNK, prod=[rows], cons=[rows], init_count=32 * WARPS)
        mx = lm.regs(shape=(ROWS, CHUNK), dtype=lm.f32, role=rows, layout="rows", warps_per_row=SPLIT)
        sm = lm.regs(shape=(ROWS, CHUNK), dtype=lm.f32, role=rows, layout="rows", warps_per_row=SPLIT)
    with rows:
        r0 = lm.block_id(0) * ROWS
        if STAGED:
            for j in lm.range(0, N // CHUNK):
                x_s.cp_async(X, coords=(j * CHUNK, r0), stage=j, barrier=got)
            mx = lm.fill(mx, -3.0e38)
            for j in lm.range(0, N // CHUNK):
                lm.wait(got, stage=j)
                mx = lm.maximum(mx, lm.cast(x_s.load(stage=j, layout="rows", warps_per_row=SPLIT), lm.f32))
            m = lm.rowmax(mx) * LOG2E
            sm = lm.fill(sm, 0.0)
            for j in lm.range(0, N // CHUNK):
                sm = sm + lm.exp2(lm.cast(x_s.load(stage=j, layout="rows", warps_per_row=SPLIT), lm.f32) * LOG2E - m)
            inv = 1.0 / lm.rowsum(sm)
            for j in lm.range(0, N // CHUNK):
                e = lm.exp2(lm.cast(x_s.load(stage=j, layout="rows", warps_per_row=SPLIT), lm.f32) * LOG2E - m)
                lm.store_tile(Y, coords=(j * CHUNK, r0), src=lm.cast(e * inv, lm.bf16))
        else:
            x = lm.cast(lm.load_tile(X, coords=(0, r0), shape=(ROWS, N), dtype=lm.bf16, warps_per_row=SPLIT), lm.f32) * LOG2E
            e = lm.exp2(x - lm.rowmax(x))
            y = lm.cast(e * (1.0 / lm.rowsum(e)), lm.bf16)
            lm.store_tile(Y, coords=(0, r0), src=y)
