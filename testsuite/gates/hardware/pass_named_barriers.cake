# 15 roles: named barriers 1..15, the most a block has (near-miss of
# fail_named_barriers.cake); the generated code uses bar.sync 15 at most.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a --emit=cuda %s | FileCheck %s
# expected-no-diagnostics
# CHECK: cake_named_barrier_sync(15, 32);
# CHECK-NOT: cake_named_barrier_sync(16
@cake.schedule()
def k(lm):
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
