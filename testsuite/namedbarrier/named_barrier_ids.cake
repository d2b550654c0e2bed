# Named barriers take ids after the roles' (bar.sync 1..15): 14 roles and
# two lm.named_barrier need 16 and are rejected; 14 roles and one fit.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def over(lm):  # expected-error {{kernel 'over' needs 16 named barriers besides barrier 0 of the whole block}}
    r0 = lm.role(warps=[0])
    r1 = lm.role(warps=[1])
    r2 = lm.role(warps=[2])
    r3 = lm.role(warps=[3])
    r4 = lm.role(warps=[4])
    r5 = lm.role(warps=[5])
    r6 = lm.role(warps=[6])
    r7 = lm.role(warps=[7])
    r8 = lm.role(warps=[8])
    r9 = lm.role(warps=[9])
    r10 = lm.role(warps=[10])
    r11 = lm.role(warps=[11])
    r12 = lm.role(warps=[12])
    r13 = lm.role(warps=[13])
    nb0 = lm.named_barrier(roles=[r0, r1])
    nb1 = lm.named_barrier(roles=[r2, r3])
    with r0:
        lm.sync(nb0)
    with r1:
        lm.sync(nb0)
    with r2:
        lm.sync(nb1)
    with r3:
        lm.sync(nb1)
    with r4:
        lm.role_sync()
    with r5:
        lm.role_sync()
    with r6:
        lm.role_sync()
    with r7:
        lm.role_sync()
    with r8:
        lm.role_sync()
    with r9:
        lm.role_sync()
    with r10:
        lm.role_sync()
    with r11:
        lm.role_sync()
    with r12:
        lm.role_sync()
    with r13:
        lm.role_sync()
# -----
@cake.schedule()
def fits(lm):
    r0 = lm.role(warps=[0])
    r1 = lm.role(warps=[1])
    r2 = lm.role(warps=[2])
    r3 = lm.role(warps=[3])
    r4 = lm.role(warps=[4])
    r5 = lm.role(warps=[5])
    r6 = lm.role(warps=[6])
    r7 = lm.role(warps=[7])
    r8 = lm.role(warps=[8])
    r9 = lm.role(warps=[9])
    r10 = lm.role(warps=[10])
    r11 = lm.role(warps=[11])
    r12 = lm.role(warps=[12])
    r13 = lm.role(warps=[13])
    nb0 = lm.named_barrier(roles=[r0, r1])
    with r0:
        lm.sync(nb0)
    with r1:
        lm.sync(nb0)
    with r2:
        lm.role_sync()
    with r3:
        lm.role_sync()
    with r4:
        lm.role_sync()
    with r5:
        lm.role_sync()
    with r6:
        lm.role_sync()
    with r7:
        lm.role_sync()
    with r8:
        lm.role_sync()
    with r9:
        lm.role_sync()
    with r10:
        lm.role_sync()
    with r11:
        lm.role_sync()
    with r12:
        lm.role_sync()
    with r13:
        lm.role_sync()
