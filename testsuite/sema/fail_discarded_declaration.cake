# A declaration whose resource is never bound.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    lm.smem(4096)  # expected-error {{'lm.smem' declares a resource; bind it to a name}}
