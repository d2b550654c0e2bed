# A grid and a family guard that divide by run-time values (grid_division.test).
# target: sm_90a
@cake.schedule(grid=(n // d, n % (d + 1) + 1))
def walk(lm, n: LM.i32, d: LM.i32):
    r = lm.role(warps=[0])
    with r:
        lm.fence_proxy()

@cake.family
def fam(lm, n: LM.i32, d: LM.i32):
    lm.domain(n, 1, 1000)
    lm.domain(d, 1, 100)
    lm.route(walk, when=n // (d - 1) > 2)
    lm.fallback(walk)
