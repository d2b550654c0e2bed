# A member may have a block of its own (`with wg[1]:`); in it, as in the
# family's body, a name declared with role=wg is that member's copy.
# RUN: %cakec -fsyntax-only -Werror %s
# RUN: %cakec --emit=ir %s | FileCheck %s
# CHECK: role wg[0]:
# CHECK-NEXT: acc[0] = fill(like=acc[0], value=1.0)
# CHECK: role wg[1]:
# CHECK-NEXT: acc[1] = fill(like=acc[1], value=2.0)
@cake.schedule()
def k(lm):
    wg = lm.roles(warps=[[0, 1, 2, 3], [4, 5, 6, 7]])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg)
    with wg[0]:
        acc = lm.fill(acc, 1.0)
        lm.role_sync()
    with wg[1]:
        acc = lm.fill(acc, 2.0)
        lm.role_sync()
