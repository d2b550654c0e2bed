# Names bound without a Let statement (named_aliases_nvcc.test): an alias of
# a parameter, and a chained assignment.
# target: sm_90a
@cake.schedule(grid=(n // 4,))
def walk(lm, n: LM.i32):
    r = lm.role(warps=[0])
    m = n
    a = b = n // 4 + 1
    with r:
        for t in lm.range(lm.block_id(0), m, lm.num_blocks(0)):
            if t + a >= b:
                lm.fence_proxy()
        for u in lm.range(0, lm.min(b=m, a=a)):
            lm.fence_proxy()
