# A family whose guards take a route the shape cannot launch (report_routes.test):
# at n > 65535, 'wide' needs a grid's second dimension past CUDA's limit;
# 'tall' puts the same blocks in the first dimension.
# target: sm_90a
@cake.schedule(grid=(1, n))
def wide(lm, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        lm.fence_proxy()

@cake.schedule(grid=(n, 1))
def tall(lm, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        lm.fence_proxy()

@cake.family
def fam(lm, n: LM.i32):
    lm.domain(n, 1, 1000000)
    lm.route(wide, when=n > 10)
    lm.fallback(tall)
