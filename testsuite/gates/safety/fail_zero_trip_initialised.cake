# An accumulator initialised only inside a loop that may run no iteration,
# and read after it (issue 34): the k loop's init=(k == 0) is checked by the
# launcher (it refuses a launch in which the k loop runs no iteration), but
# the tile loop around it runs T times, and T may be 0; then the store
# after the tile loop writes an accumulator nothing initialised. The
# near-miss, pass_zero_trip_launcher_checked.test, stores inside the tile
# loop and relies on the launcher's check of the k loop.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, T: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 4):
                lm.wait(empty, stage=t * 4 + k)
                a_s.tma_load(A, coords=(k * 64, t * 64), stage=t * 4 + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 4 + k, barrier=full)
    with math:
        for t in lm.range(0, T):  # expected-note {{the loop over 't' is here}}
            for k in lm.range(0, 4):
                lm.wait(full, stage=t * 4 + k)
                lm.mma(acc, a_s[t * 4 + k], b_s[t * 4 + k].T, init=(k == 0))  # expected-error {{cannot prove that 'acc' is initialised before role 'math' first accumulates into it: init=(k == 0) of its first 'mma' runs inside a loop over 't' that may run zero times (lm.range(0, T)), after which 'acc' is read; declare the count as a tensor dimension (at least 1), bound it with lm.max, or initialise before the loop}}
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * 4 + k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
