# lm.roles takes one list of warps per member, all of one length.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def flat(lm):
    wg = lm.roles(warps=[4, 5, 6, 7])  # expected-error {{invalid warps for role family 'wg': member 0 is the integer 4; each member is a list of warps, as in warps=[[4, 5, 6, 7], [8, 9, 10, 11]]}}

@cake.schedule()
def uneven(lm):
    wg = lm.roles(warps=[[0, 1, 2, 3], [4, 5]])  # expected-error {{invalid warps for role family 'wg': member 1 has 2 warp(s) and member 0 has 4; the members run one body, so each has as many warps}}

@cake.schedule()
def empty(lm):
    wg = lm.roles(warps=[])  # expected-error {{the 'warps' list must not be empty}}
    wh = lm.roles(warps=[[0], []])  # expected-error {{the warps of member 1 must not be empty}}
    wi = lm.roles(warps=[[0, 0]])  # expected-error {{warp 0 is listed twice}}
