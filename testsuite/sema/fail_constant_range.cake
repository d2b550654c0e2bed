# Constants the lowered code could not hold are errors before lowering (issue
# 33): a TMA coordinate past 32 bits, a fill value past a float's range; the
# near misses (the largest 32-bit coordinate, the largest float, an infinity)
# pass.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d):
    pool = lm.smem(16384)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0])
    math = lm.role(warps=[4, 5, 6, 7])
    full = lm.barrier(count=1, prod=[load], cons=[math])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with load:
        a_s.tma_load(A, coords=(0, 2147483648), barrier=full)  # expected-error {{argument 'coords' of 'view.tma_load' must be an integer of 32 bits (-2147483648 .. 2147483647) as lowered code holds it, got 2147483648}}
        a_s.tma_load(A, coords=(0, 2147483647), barrier=full)
        a_s.tma_load(A, coords=(-2147483649, 0), barrier=full)  # expected-error {{got -2147483649}}
    with math:
        acc = lm.fill(acc, 1e39)  # expected-error {{argument 'value' of 'lm.fill' must be a number that a 32-bit float holds (at most 3.4028235e38 in magnitude, or an infinity), got 1e+39}}
        acc = lm.fill(acc, -3.4e38)
        acc = lm.fill(acc, 1e400)
