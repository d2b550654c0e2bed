# Runtime values where compile-time constants are required.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(n * 2)  # expected-error {{argument 'bytes' of 'lm.smem' must be a compile-time constant}}
    r = lm.role(warps=[lm.block_id(0)])  # expected-error {{argument 'warps' of 'lm.role' must be a compile-time constant}}
    if n > 4:  # expected-error {{a condition outside a role must be a compile-time constant}}
        pass
