# A 1 x 1 fragment from shared memory (view.load(shape=(1, 1))): the first
# element of a view (of a stage), one value in every thread, broadcast over
# a row vector and a tile: Y = X * (s * t) + t, s a row vector of one f32
# per row, t the first element of T's second row (the fp8 block-scaled
# example reads one of a staged view). Used by
# testsuite/codegen/scalar_loads.test on every target with the accumulator
# layout.
R = 128
C = 128

@cake.schedule()
def scalar_loads(lm, X: LM.tensor2d[R, C], S: LM.tensor2d[1, R], T: LM.tensor2d[2, 8], Y: LM.tensor2d[R, C]):
    pool = lm.smem(R * C * 4 + R * 4 + 64)
    x_s = pool.view(offset=0, shape=(R, C), dtype=lm.f32)
    s_s = pool.view(offset=R * C * 4, shape=(1, R), dtype=lm.f32)
    t_s = pool.view(offset=R * C * 4 + R * 4, shape=(1, 8), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=768)
    with math:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        s_s.cp_async(S, coords=(0, 0), barrier=got)
        t_s.cp_async(T, coords=(0, 1), barrier=got)
        lm.wait(got, stage=0)
        t = t_s.load(shape=(1, 1))
        y = x_s.load() * (s_s.load(rows=True) * t) + t
        x_s.store(y)
        lm.role_sync()
        x_s.copy_to(Y, coords=(0, 0))
