# Calling something that is not an operation.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    x = r(1)  # expected-error {{the role 'r' is not an operation and cannot be called}}
    y = lm.bf16()  # expected-error {{the dtype 'bf16' is not an operation and cannot be called}}
