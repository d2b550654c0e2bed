# A role's block inside another role's block.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    q = lm.role(warps=[1])
    with r:  # expected-note {{role 'r' entered here}}
        with q:  # expected-error {{role 'q' entered inside role 'r'}}
            pass
