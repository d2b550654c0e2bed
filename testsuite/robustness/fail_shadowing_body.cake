# Shadowed vocabulary words inside a schedule: LM, the builder handle, range.
# RUN: %cakec -verify -fsyntax-only %s
LM = 3
range = 5
@cake.schedule()
def j(lm, A: LM.tma2d):  # expected-error {{the integer 3 has no attribute 'tma2d'}} expected-note {{previous definition of 'lm' is here}}
    lm = 3  # expected-error {{redefinition of 'lm'}}
    r = lm.role(warps=[range])
    with r:
        for i in range(0, 2):  # expected-error {{the integer 5 is not an operation and cannot be called}}
            pass
