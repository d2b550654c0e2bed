# `with wg:` is the block of every member of the family: a member with a
# block of its own as well has two.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm):
    wg = lm.roles(warps=[[0], [1]])
    with wg:  # expected-note {{first block of role 'wg[1]' is here}}
        lm.role_sync()
    with wg[1]:  # expected-error {{role 'wg[1]' has a second 'with' block; a role's work goes in one block}}
        lm.role_sync()
