# An undefined name is reported, with a suggestion for a likely typo.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(1024)
    v = pol.view(offset=0, shape=(8, 8), dtype=lm.f32)  # expected-error {{use of undefined name 'pol'; did you mean 'pool'?}}
    w = xyzzy  # expected-error {{use of undefined name 'xyzzy'}}
