# Shapes at the edges of what a launch can be (report_edges.test): a grid
# from three parameters, a loop whose step is a parameter, a loop nest
# without operations, and a family guard that divides by a parameter.
# target: sm_90a
@cake.schedule(grid=(a, b, c))
def walk(lm, a: LM.i32, b: LM.i32, c: LM.i32, s: LM.i32, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        for i in lm.range(0, n, s):
            lm.fence_proxy()
        for i in lm.range(0, n):
            for j in lm.range(0, n):
                if i + j < 0:
                    lm.fence_proxy()

@cake.family
def fam(lm, a: LM.i32, b: LM.i32, c: LM.i32, s: LM.i32, n: LM.i32):
    lm.domain(a, 1, 1000)
    lm.domain(b, 1, 65535)
    lm.domain(c, 1, 65535)
    lm.domain(s, 1, 100)
    lm.domain(n, 1, 1000000)
    lm.route(walk, when=a > 500 and a // (s - 1) > 2)
    lm.fallback(walk)
