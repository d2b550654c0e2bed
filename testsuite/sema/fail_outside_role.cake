# Operations and loops that must run inside a role.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(4096)
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    lm.wait(b, stage=0)  # expected-error {{'lm.wait' must run inside a role's 'with' block}}
    lm.fence_proxy()  # expected-error {{'lm.fence_proxy' must run inside a role's 'with' block}}
    for s in lm.range(0, n):  # expected-error {{'for' must run inside a role's 'with' block}}
        pass
