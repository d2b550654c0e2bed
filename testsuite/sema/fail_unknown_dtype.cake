# A misspelt dtype on the builder is an unknown operation with a suggestion.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(1024)
    v = pool.view(offset=0, shape=(8,), dtype=lm.bf61)  # expected-error {{the builder has no operation 'bf61'; did you mean 'bf16'?}}
