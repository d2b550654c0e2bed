# Misusing a role family or the copies it gives its members.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, C: LM.tma2d, n: LM.i32):
    pool = lm.smem(16384)
    load = lm.role(warps=[0])
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]])
    c = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, role=wg)
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg)
    d = pool.view(offset=0, shape=(8, 8), dtype=lm.bf16, role=load, alias=True)  # expected-error {{argument 'role' of 'pool.view' must be a role family, not the role 'load'}}
    done = lm.barrier(count=1, prod=[wg[1]], cons=[load, wg[2]])  # expected-error {{member index 2 is out of range: role family 'wg' has 2 member(s)}}
    with load as i:  # expected-error {{'as i' binds nothing}}
        # Outside the family's body a copy is named by its member.
        c.tma_store(C, coords=(0, 0))  # expected-error {{'c' has one copy per member of role family 'wg'; outside the family's body, name one member's copy, as 'c[0]'}}
        out = lm.cast(acc, lm.bf16)  # expected-error {{'acc' has one copy per member of role family 'wg'; outside the family's body, name one member's copy, as 'acc[0]'}}
        acc = lm.fill(out, 0.0)  # expected-error {{'acc' has one copy per member of role family 'wg'; outside the family's body, name one member's copy, as 'acc[0]'}}
        for j in lm.range(0, n):
            c[j].tma_store(C, coords=(0, 0))  # expected-error {{a member index must be a compile-time constant}}
    with wg as i:
        c.tma_store(C, coords=(64 * i, 0))
