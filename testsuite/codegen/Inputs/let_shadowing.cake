# A name bound again inside a loop, from its outer value (x = x + 1): the
# new variable must not read itself in its initializer.
@cake.schedule(grid=(B,))
def shadow(lm, LEN: LM.tensor1d[L], B: LM.i32, L: LM.i32, H: LM.i32):
    a = lm.role(warps=[0])
    c = lm.role(warps=[1])
    nb = lm.named_barrier(roles=[a, c])
    b = lm.block_id(0)
    with a:
        x = b
        for k in lm.range(0, 1):
            x = x + 1
            n = lm.load_scalar(LEN, coords=(x,), lo=0, hi=H)
            for j in lm.range(0, n):
                lm.sync(nb)
    with c:
        b = b + 1
        n = lm.load_scalar(LEN, coords=(b,), lo=0, hi=H)
        for j in lm.range(0, n):
            lm.sync(nb)
