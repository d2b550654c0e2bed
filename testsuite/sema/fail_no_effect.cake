# An expression statement that does nothing is a warning.
# RUN: %cakec -verify -fsyntax-only -Wno-unused %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    x = 1
    x + 1  # expected-warning {{statement has no effect}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
