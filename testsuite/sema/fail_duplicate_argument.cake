# An argument given twice, positionally and by keyword.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096, bytes=8192)  # expected-error {{argument 'bytes' of 'lm.smem' is given twice}}
