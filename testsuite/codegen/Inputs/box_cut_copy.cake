# A copy whose output shows the rows past a cut box (box_cut_copy.test and
# harness/boxcut/): A[M, 64] is loaded as one 64-row box into `v`, which is
# stored whole to D[64, 64]. D's dimensions are constants, so its box is
# never cut, and rows M..63 of D are exactly the rows of `v` past the cut:
# zeros, as TMA fills them for a full box. ROLE_SYNC=1 gives the storing
# role an operation every thread runs, so that role zeroes the rows itself;
# with ROLE_SYNC=0 it runs on one thread and the prologue zeroes them.
# ROWS=1 copies one row: a box of one row is never cut (box_cut_copy.test).
# target: sm_90a
ROLE_SYNC = 0
ROWS = 64

@cake.schedule(grid=(1,))
def copy_rows(lm, A: LM.tma2d[M, 64], D: LM.tma2d[64, 64], M: LM.i32):
    pool = lm.smem(8192)
    v = pool.view(offset=0, shape=(ROWS, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0])
    store = lm.role(warps=[1])
    full = lm.barrier(count=1, prod=[load], cons=[store], init_count=1)
    with load:
        v.tma_load(A, coords=(0, 0), stage=0, barrier=full)
    with store:
        lm.wait(full, stage=0)
        if ROLE_SYNC == 1:
            lm.role_sync()
        v.tma_store(D, coords=(0, 0))
        lm.tma_store_wait()
