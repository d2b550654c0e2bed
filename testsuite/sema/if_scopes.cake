# Scopes of `if` inside a role (docs/language.md 4.4): a compile-time
# condition picks its branch and opens no scope, so what the branch binds
# is visible after it (and binding it again there is a redefinition); each
# branch of a run-time `if` is a scope, so its names end with it.
# RUN: %cakec -verify -fsyntax-only %s
WIDE = True

@cake.schedule(grid=(1,))
def k(lm, Y: LM.tensor2d[4, 256], n: LM.i32):
    w = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(4, 256), dtype=lm.f32, role=w)
    with w:
        if WIDE:
            x = lm.fill(acc, 1.0)
            c = 2  # expected-note {{previous definition of 'c' is here}}
        else:
            x = lm.fill(acc, 0.0)
        lm.store_tile(Y, coords=(0, 0), src=lm.cast(x * c, lm.bf16))
        if not WIDE:
            c = 5
        else:
            c = 3  # expected-error {{redefinition of 'c'}}
        if n > 0:
            d = n + 1
        e = d  # expected-error {{use of undefined name 'd'}}
