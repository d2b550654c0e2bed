# Fragment operations the sm_90a lowering cannot honour are errors naming
# the operation and why: transcendental math on i32 fragments (masks and
# indices), and a view loaded into anything but a column vector.
# RUN: %cakec -verify --target=sm_90a --emit=cuda %s
# The check alone reports the same (-fsyntax-only runs the lowering).
# RUN: %cakec -verify --target=sm_90a -fsyntax-only %s
@cake.schedule()
def k(lm, n: LM.i32):
    pool = lm.smem(1024)
    rows = pool.view(offset=0, shape=(64, 1), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    m = lm.regs(shape=(64, 1), dtype=lm.i32, role=math)
    f = lm.regs(shape=(64, 1), dtype=lm.f32, role=math)
    with math:
        m = lm.fill(m, 0)
        f = lm.fill(f, 1.0)
        rows.store(f)
        e = lm.exp2(m)  # expected-error {{'lm.exp2' to an i32 fragment has no sm_90a lowering: i32 fragments (masks, indices) are made by comparisons, lm.where, copies, fills, + - *}}
        r = rows.load()  # expected-error {{a load of 'rows' has no sm_90a lowering: views are loaded as column vectors: an unswizzled 1 x N view of f32, i32}}
