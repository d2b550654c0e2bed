# '/' on integers is refused in favour of '//'.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096 / 2)  # expected-error {{'/' is true division; use '//' for integer division}}
