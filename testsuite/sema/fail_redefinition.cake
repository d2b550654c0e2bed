# Binding a name twice in one scope is an error pointing at the first binding.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(1024)  # expected-note {{previous definition of 'pool' is here}}
    pool = lm.smem(2048)  # expected-error {{redefinition of 'pool'}}
