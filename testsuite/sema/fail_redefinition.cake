# Binding a name twice in one scope is an error pointing at the first binding.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(1024)  # expected-note {{previous definition of 'pool' is here}}
    pool = lm.smem(2048)  # expected-error {{redefinition of 'pool'}}

# Two schedules of one name: one redefinition error (not also a name
# conflict in the generated code).
@cake.schedule()
def twice(lm):  # expected-note {{previous definition of 'twice' is here}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
@cake.schedule()
def twice(lm):  # expected-error {{redefinition of 'twice'}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
