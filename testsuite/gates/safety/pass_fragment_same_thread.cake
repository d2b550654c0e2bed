# Near misses of fail_fragment_cross_thread.cake that are correct: a tile
# loaded and written back in place (each thread stores the elements it
# loaded: the fused epilogue of examples/gemm_bf16_epilogue_sm90a.cake); a
# tile stored and loaded back through a view of its rows and fewer columns
# (same rows: the same thread holds each element); a row vector stored,
# synced, then loaded, in a loop whose next store follows a role sync; two
# loads of one view (reads only); different constant stages of a ring; two
# stores of a global tensor a whole tile apart.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule()
def k(lm, Z: LM.tensor2d[128, 128], Y: LM.tensor2d[128, 128], T: LM.i32):
    pool = lm.smem(196608)
    z_s = pool.view(offset=0, shape=(128, 128), dtype=lm.f32)
    w_s = pool.view(offset=65536, shape=(128, 64), dtype=lm.f32)
    s_s = pool.view(offset=98304, shape=(1, 128), dtype=lm.f32)
    r_s = pool.view(offset=99328, shape=(128, 64), dtype=lm.f32, stage=2)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    v = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    with math:
        z_s.cp_async(Z, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        z = z_s.load()
        z2 = z_s.load()
        z_s.store(z * 2.0 + z2)
        v = lm.fill(v, 1.0)
        w_s.store(v, col=64)
        w = w_s.load()
        r_s.store(w, stage=0)
        x = r_s.load(stage=1)
        r_s.store(x, stage=0)
        for t in lm.range(0, T):
            lm.role_sync()
            s_s.store(lm.rowmax(v))
            lm.role_sync()
            v = v * s_s.load(rows=True)
        z_s.store(v)
        lm.role_sync()
        z_s.copy_to(Y, coords=(0, 0))

# two stores of a global tensor at tiles a whole tile apart (rows b * 128 and
# b * 128 + 64): no element is stored by both, so no meeting is needed
# between them (it was asked for, since the rule did not compare tiles)
@cake.schedule(grid=((M + 127) // 128,))
def k_tiles(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 128), src=acc)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 128 + 64), src=acc2)
