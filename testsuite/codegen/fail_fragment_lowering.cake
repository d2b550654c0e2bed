# Fragment operations the sm_90a lowering cannot honour are errors naming
# the operation and why: transcendental math on i32 fragments (masks and
# indices), and a vector loaded from a swizzled view.
# RUN: %cakec -verify --target=sm_90a --emit=cuda %s
# The check alone reports the same (-fsyntax-only runs the lowering).
# RUN: %cakec -verify --target=sm_90a -fsyntax-only %s
@cake.schedule()
def k(lm, X: LM.tensor2d[1, 128], n: LM.i32):
    pool = lm.smem(2048)
    rows = pool.view(offset=0, shape=(64, 1), dtype=lm.f32)
    cols = pool.view(offset=1024, shape=(1, 128), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=128)
    m = lm.regs(shape=(64, 1), dtype=lm.i32, role=math)
    f = lm.regs(shape=(64, 1), dtype=lm.f32, role=math)
    with math:
        cols.cp_async(X, coords=(0, 0), barrier=got)
        m = lm.fill(m, 0)
        f = lm.fill(f, 1.0)
        rows.store(f)
        e = lm.exp2(m)  # expected-error {{'lm.exp2' to an i32 fragment has no sm_90a lowering: i32 fragments (masks, indices) are made by comparisons, lm.where, copies, fills, + - *}}
        lm.role_sync()
        r = rows.load()
        lm.wait(got, stage=0)
        c = cols.load()  # expected-error {{a load of 'cols' has no sm_90a lowering: views of bf16, f16, f32, i32, e4m3, e5m2 are loaded: tiles (a swizzled one's rows one swizzle span or whole panels of it), unswizzled M x 1 and 1 x N vectors}}
