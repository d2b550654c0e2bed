# An epilogue role waiting on a barrier declared for another role.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    a = lm.role(warps=[0])
    b = lm.role(warps=[1])
    epi = lm.role(warps=[2])
    done = lm.barrier(count=1, prod=[a], cons=[b])  # expected-note {{barrier 'done' declared here}}
    with a:
        lm.arrive(done, stage=0)
    with b:
        lm.wait(done, stage=0)
    with epi:
        lm.wait(done, stage=0)  # expected-error {{role 'epi' waits on barrier 'done' but is not among its consumers ['b']}}
