# Each role gets a named barrier (bar.sync 1..15; 0 is the whole block's):
# 16 roles need 17 and are rejected; pass_named_barriers.cake has 15.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule()
def k(lm):  # expected-error {{kernel 'k' needs 16 named barriers besides barrier 0 of the whole block}}
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
    r14 = lm.role(warps=[14])
    r15 = lm.role(warps=[15])
    with r0:
        lm.role_sync()
    with r1:
        lm.role_sync()
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
    with r14:
        lm.role_sync()
    with r15:
        lm.role_sync()
