# One member's fragment is its role's registers: another role using it is
# schedule.fragment-role, as for any fragment.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm):
    load = lm.role(warps=[0, 1, 2, 3])
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg)  # expected-note {{'acc[1]' declared here}}
    with load:
        x = lm.cast(acc[1], lm.bf16)  # expected-error {{role 'load' uses the register fragment 'acc[1]', which belongs to role 'wg[1]'}}
    with wg as i:
        acc = lm.fill(acc, 1.0 * i)
