# A keyword argument the operation does not take, with a suggestion.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    v = pool.view(ofset=0, shape=(8,), dtype=lm.f32)  # expected-error {{'pool.view' has no parameter 'ofset'; did you mean 'offset'?}} expected-error {{missing required argument 'offset' of 'pool.view'}}
    p = lm.pipeline(stages=2, depth=3)  # expected-error {{'lm.pipeline' has no parameter 'depth'}}
