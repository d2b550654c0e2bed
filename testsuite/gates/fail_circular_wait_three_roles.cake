# Three roles each waiting on the next before signalling.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    a = lm.role(warps=[0])
    b = lm.role(warps=[1])
    c = lm.role(warps=[2])
    ab = lm.barrier(count=1, prod=[a], cons=[b])
    bc = lm.barrier(count=1, prod=[b], cons=[c])
    ca = lm.barrier(count=1, prod=[c], cons=[a])
    with a:
        lm.wait(ca, stage=0)  # expected-error {{roles wait for each other before either arrives: role 'a' waits on 'ca', which role 'c' signals only later; role 'c' waits on 'bc', which role 'b' signals only later; role 'b' waits on 'ab', which role 'a' signals only later}}
        lm.arrive(ab, stage=0)
    with b:
        lm.wait(ab, stage=0)  # expected-note {{role 'b' waits on 'ab' here}}
        lm.arrive(bc, stage=0)
    with c:
        lm.wait(bc, stage=0)  # expected-note {{role 'c' waits on 'bc' here}}
        lm.arrive(ca, stage=0)
