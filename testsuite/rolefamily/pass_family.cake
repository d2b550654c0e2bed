# A role family: two consumer warpgroups from one body. Each member is an
# ordinary role (wg[0], wg[1]) with its own accumulator and staging view; the
# member index `i` is a compile-time integer (a loop start, arithmetic, an
# `if`). A barrier's prod/cons name the family for all its members; one
# member of a family is `wg[1]`, one member's copy `c[1]`.
# RUN: %cakec -fsyntax-only -Werror %s
# RUN: %cakec --emit=ir %s | FileCheck %s
# CHECK: role wg[0] warps [4, 5, 6, 7], threads 128..255, setmaxnreg 232
# CHECK-NEXT: role wg[1] warps [8, 9, 10, 11], threads 256..383, setmaxnreg 232
# CHECK-NEXT: view c[0] pool+65536:
# CHECK-NEXT: view c[1] pool+73728:
# CHECK-NEXT: regs acc[0] 64x64 f32, role wg[0]
# CHECK-NEXT: regs acc[1] 64x64 f32, role wg[1]
# CHECK: consumers [wg[0], wg[1]]
# CHECK: role wg[0]:
# CHECK-NEXT: for j in range(0, n, 2):
# CHECK: role wg[1]:
# CHECK-NEXT: for j in range(1, n, 2):
# Member names become identifiers of the generated CUDA, which nvcc assembles.
# RUN: %cakec %s -o %t.cu
# RUN: FileCheck --check-prefix=CU %s < %t.cu
# CU: float cake_acc_m0[32];  // 'acc[0]' 64x64 f32
# CU: float cake_acc_m1[32];  // 'acc[1]' 64x64 f32
# target: sm_90a
@cake.schedule(grid=(1,))
def pingpong(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536 + 2 * 16384)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]], regs=232)
    c = pool.view(offset=65536, shape=(64, 64), dtype=lm.bf16, swizzle="128B", role=wg)
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=wg)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[wg], pipeline=ring)
    empty = lm.barrier(count=2, prod=[wg], cons=[load], pipeline=ring)
    order = lm.barrier(count=1, prod=[wg], cons=[wg], credits=1)
    with load:
        for j in lm.range(0, n):
            lm.wait(empty, stage=j)
            a_s.tma_load(A, coords=(0, j * 64), stage=j, barrier=full)
            b_s.tma_load(B, coords=(0, j * 64), stage=j, barrier=full)
    with wg as i:
        for j in lm.range(i, n, 2):
            lm.wait(order, stage=j)
            lm.wait(full, stage=j)
            lm.mma(acc, a_s[j], b_s[j].T, init=True)
            lm.mma_commit()
            lm.arrive(order, stage=j, per="warpgroup")
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=j, per="warpgroup")
            out = lm.cast(acc, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c.store(out)
            lm.fence_proxy()
            lm.role_sync()
            if i == 0:
                c.tma_store(C, coords=(0, j * 64))
            else:
                c.tma_store(C, coords=(64 * i, j * 64))
        lm.tma_store_wait()
