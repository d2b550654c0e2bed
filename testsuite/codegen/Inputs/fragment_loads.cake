# Shared-memory tiles and vectors loaded into registers (view.load) and
# 16-bit fragments read by fragment math, on every target with the
# accumulator layout: Y = (X + b) * s + Z, X a bf16 tile through a 128B
# swizzle (two panels per row), b a bf16 column vector, s a row vector of one
# f32 per row (rows=True), Z an f32 tile, written back over Z (each thread
# writes the elements it loaded). Two warpgroups, 64 rows each.
# Used by testsuite/codegen/fragment_loads.test and, on the H200, by
# harness/epilogue/run.sh (harness/epilogue/loads_check.py).
R = 128
C = 128

@cake.schedule()
def fragment_loads(lm, X: LM.tensor2d[R, C], B: LM.tensor2d[1, C], S: LM.tensor2d[1, R], Z: LM.tensor2d[R, C],
                   Y: LM.tensor2d[R, C]):
    pool = lm.smem(R * C * 6 + C * 2 + R * 4)
    x_s = pool.view(offset=0, shape=(R, C), dtype=lm.bf16, swizzle="128B")
    z_s = pool.view(offset=R * C * 2, shape=(R, C), dtype=lm.f32)
    b_s = pool.view(offset=R * C * 6, shape=(1, C), dtype=lm.bf16)
    s_s = pool.view(offset=R * C * 6 + C * 2, shape=(1, R), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=1024)
    with math:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        z_s.cp_async(Z, coords=(0, 0), barrier=got)
        b_s.cp_async(B, coords=(0, 0), barrier=got)
        s_s.cp_async(S, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load()
        y = (lm.cast(x, lm.f32) + lm.cast(b_s.load(), lm.f32)) * s_s.load(rows=True) + z_s.load()
        z_s.store(y)
        lm.role_sync()
        z_s.copy_to(Y, coords=(0, 0))
