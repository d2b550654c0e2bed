# Comparisons, selects, loads and the row argmin on fragments: '<' and '>'
# make i32 masks, lm.where takes a mask and two values of one type,
# lm.rowargmin returns a (values, columns) pair of row vectors.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(1024)
    cn_s = pool.view(offset=0, shape=(1, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    d = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    best_v = lm.regs(shape=(64, 1), dtype=lm.f32, role=math)
    best_i = lm.regs(shape=(64, 1), dtype=lm.i32, role=math)
    with math:
        cn = cn_s.load()
        v, i = lm.rowargmin(cn - 2.0 * d, offset=n)
        better = v < best_v
        worse = v > best_v
        best_i = lm.where(better, i, best_i)
        best_v = lm.minimum(best_v, v)
        x1 = lm.where(v, i, best_i)  # expected-error {{argument 'mask' of 'lm.where' must be an i32 register fragment (a mask), not a f32 fragment}}
        x2 = lm.where(better, v, best_i)  # expected-error {{operands of 'lm.where' differ in element type: 'v' is f32 and 'best_i' is i32; convert one with lm.cast}}
        x3 = lm.rowargmin(best_v)  # expected-error {{'lm.rowargmin' reduces each row to one value, but 'best_v' (64, 1) has one column already}}
        best_v = i  # expected-error {{cannot assign the fragment 'i' (64, 1) i32 to the register fragment 'best_v' (64, 1) f32}}
        lm.rowargmin(d)  # expected-warning {{statement has no effect}}
        a, b, c = lm.rowargmin(d)  # expected-error {{cannot unpack 2 values into 3 names}}
