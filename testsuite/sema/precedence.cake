# Operator precedence and associativity follow Python, checked through
# constant evaluation: ** binds tighter than unary minus and is
# right-associative; - and // are left-associative; not binds looser than
# comparisons, and looser than and/or only in that order.
# RUN: %cakec --emit=ir --target=sm_90a -Wno-unused %s | FileCheck %s
X = 2 ** 3 ** 2
Y = -2 ** 2 + 8
Z = 7 - 2 - 1
W = 1 + 2 * 3 - 100 // 10 // 5
V = 2 ** -0 * 3
T = not 1 == 2 and 3 > 2 or False
@cake.schedule()
def k(lm):
    x = lm.smem(X)
    y = lm.smem(Y)
    z = lm.smem(Z * 1024)
    w = lm.smem(W)
    v = lm.smem(V)
    if T:
        t = lm.smem(1)
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
# CHECK: pool     x         512 B
# CHECK-NEXT: pool     y         4 B
# CHECK-NEXT: pool     z         4096 B
# CHECK-NEXT: pool     w         5 B
# CHECK-NEXT: pool     v         3 B
# CHECK-NEXT: pool     t         1 B
