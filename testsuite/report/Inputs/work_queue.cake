# A work queue (report_edges.test): each block takes tile indices from one
# counter, several times; a second counter finds the last block to finish,
# which resets both for the next launch.
# target: sm_90a
@cake.schedule(grid=(G,))
def wq(lm, X: LM.tensor2d[M, 64], Y: LM.tensor2d[M, 64], M: LM.i32, G: LM.i32, T: LM.i32):
    ctr = lm.workspace(shape=(1,), dtype=lm.i32)
    done = lm.workspace(shape=(1,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        for it in lm.range(0, T):
            t = lm.atomic(ctr, coords=(0,))
            if t < (M + 63) // 64:
                a = lm.load_tile(X, coords=(0, t * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.store_tile(Y, coords=(0, t * 64), src=a)
        d = lm.atomic(done, coords=(0,), order="acq_rel")
        if d == lm.num_blocks(0) - 1:
            lm.atomic(ctr, coords=(0,), value=0, op="exch")
            lm.atomic(done, coords=(0,), value=0, op="exch")
