# Fragment algebra: operators and lm.add/.../lm.tril on register fragments
# broadcast row vectors (M x 1) across columns and column vectors (1 x N)
# across rows; anything else is refused where it is written.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    t = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    h = lm.regs(shape=(64, 128), dtype=lm.bf16, role=math)
    m = lm.regs(shape=(64, 1), dtype=lm.f32, role=math)
    c = lm.regs(shape=(1, 128), dtype=lm.f32, role=math)
    bad = s * 2.0  # expected-error {{'lm.mul' must run inside a role's 'with' block}}
    with math:
        ok1 = s - m + c * 0.5
        ok2 = lm.maximum(m, lm.rowmax(s))
        ok3 = m + c
        ok4 = -s / lm.rowsum(s)
        ok5 = lm.tril(s, row=n, col=0)
        x1 = s + t  # expected-error {{operands of 'lm.add' do not broadcast: 's' is (64, 128) and 't' is (64, 64) (a row vector is M x 1, a column vector 1 x N)}}
        x2 = s * h  # expected-error {{operands of 'lm.mul' differ in element type: 's' is f32 and 'h' is bf16; convert one with lm.cast}}
        x3 = lm.rowmax(m)  # expected-error {{'lm.rowmax' reduces each row to one value, but 'm' (64, 1) has one column already}}
        x4 = s // 2  # expected-error {{operator '//' cannot be applied to the register fragment 's'}}
        x5 = lm.add(1.0, 2.0)  # expected-error {{argument 'a' of 'lm.add' must be a register fragment, not a number}}
        x6 = lm.sub(s, math)  # expected-error {{argument 'b' of 'lm.sub' must be a register fragment or a number, not the role 'math'}}
        lm.exp2(s)  # expected-warning {{statement has no effect}}
        s = lm.rowmax(s)  # expected-error {{cannot assign a (64, 1) f32 fragment to the register fragment 's' (64, 128) f32}}
        m = 0.0  # expected-error {{cannot assign a number to the register fragment 'm' (64, 1) f32: an assignment to a fragment updates it in place and keeps its shape and element type}}
        m = lm.rowsum(s)
        s = ok1
        t = ok2  # expected-error {{cannot assign the fragment 'ok2' (64, 1) f32 to the register fragment 't' (64, 64) f32}}
        s = s * m
