# The members of a role family are ordinary roles: their warps are disjoint
# (the schedule gate), and so are theirs and other roles'.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def overlap(lm):
    load = lm.role(warps=[1])  # expected-note {{role 'load' declared here}}
    wg = lm.roles(warps=[[0], [1]])  # expected-error {{warp 1 belongs to both role 'load' and role 'wg[1]'}}
    with load:
        lm.role_sync()
    with wg:
        lm.role_sync()
