# An operation the exact target does not have, named with the targets that do.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        lm.commit(b, stage=0)  # expected-error {{'lm.commit' is not available on sm_90a; it exists on sm_100a, sm_103a}}
        lm.wait(b, stage=0)
