# A fragment that is a part of an expression is described as such, not by
# the name the whole expression is assigned to (m_new), nor by an internal
# one; the caret points at it.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm):
    r = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=r)
    with r:
        m_new = lm.max(1, lm.rowmax(acc))  # expected-error {{argument 'b' of 'lm.max' must be an integer, not a register fragment (an unnamed part of the expression)}}
