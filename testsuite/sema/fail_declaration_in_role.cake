# Declarations belong at kernel scope.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        pool = lm.smem(4096)  # expected-error {{'lm.smem' declares a resource and belongs at kernel scope, not inside role 'r'}}
