# Derived facts in --emit=ir: view sizes per stage and in total, absolute
# alignment, pool placement at 1024-byte boundaries, mbarrier placement after
# the pools, block size from the highest warp, module constants, compile-time
# `if` choosing declarations, and tuple unpacking.
# RUN: %cakec --emit=ir --target=sm_90a %s | FileCheck %s
TILE = 64
USE_BIG = TILE > 32
@cake.schedule(grid=(n, 2), cluster=(2, 1))
def k(lm, A: LM.tma3d, W: LM.tma2d, n: LM.i32, scale: LM.f32):
    p1 = lm.smem(1000)
    p2 = lm.smem(2048)
    v = p2.view(offset=128, shape=(TILE // 2, 8), dtype=lm.f16, stage=2)
    w = p1.view(offset=8, shape=(5,), dtype=lm.e4m3)
    if USE_BIG:
        big = p2.view(offset=1536, shape=(2, 2), dtype=lm.f32)
    else:
        small = p2.view(offset=1024, shape=(1,), dtype=lm.f32)
    p3 = lm.smem(4096)
    a_s = p3.view(offset=0, shape=(64, 16), dtype=lm.bf16)
    b_s = p3.view(offset=2048, shape=(64, 16), dtype=lm.bf16)
    x, (y, z) = 1, (4, 5)
    r = lm.role(warps=[4, 5, 6, 7])
    q = lm.role(warps=[0])
    e = lm.role(warps=[9])
    b1 = lm.barrier(count=y - 2, prod=[q], cons=[r])
    b2 = lm.barrier(count=1, prod=[r], cons=[q], init_count=x)
    b3 = lm.barrier(count=1, prod=[q], cons=[r])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=r)
    with r:
        lm.wait(b3, stage=0)
        lm.mma(acc, a_s, b_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait()
        for s in lm.range(0, n * 2):
            lm.wait(b1, stage=s)
            if s == 4 and n > 2:
                lm.arrive(b2, stage=s, per="warpgroup")
            else:
                lm.role_sync()
                lm.arrive(b2, stage=s, per="warpgroup")
        t = lm.scale(acc, scale)
        m = lm.rowmax(t)
    with q:
        a_s.tma_load(W, coords=(0, 0), barrier=b3)
        b_s.tma_load(W, coords=(0, 64), barrier=b3)
        for s in lm.range(0, n * 2):
            v.tma_load(A, coords=(0, 1, 2), stage=s, barrier=b1)
            lm.wait(b2, stage=s)
    with e:
        lm.role_sync()
# CHECK: kernel k  @[[#@LINE-42]]:5
# CHECK-NEXT: launch: block 320 threads (10 warps), grid (n, 2), cluster 2x1x1
# CHECK-NEXT: shared memory: 7200 B dynamic (32 B of mbarriers); target limit 232448 B
# CHECK: scalar   scale     f32
# CHECK: pool     p1        1000 B at smem+0
# CHECK-NEXT: pool     p2        2048 B at smem+1024
# CHECK-NEXT: view     v         p2+128: 32x8 f16, 2 stages x 512 B = 1024 B, swizzle none, align 128
# CHECK-NEXT: view     w         p1+8: 5 e4m3, 1 stage x 5 B = 5 B, swizzle none, align 8
# CHECK-NEXT: view     big       p2+1536: 2x2 f32, 1 stage x 16 B = 16 B, swizzle none, align 512
# CHECK-NEXT: pool     p3        4096 B at smem+3072
# CHECK-NEXT: view     a_s       p3+0: 64x16 bf16, 1 stage x 2048 B = 2048 B, swizzle none, align 1024
# CHECK-NEXT: view     b_s       p3+2048: 64x16 bf16, 1 stage x 2048 B = 2048 B, swizzle none, align 1024
# CHECK-NEXT: role     r         warps [4, 5, 6, 7], threads 128..255, no register budget
# CHECK-NEXT: role     q         warps [0], threads 0..31, no register budget
# CHECK-NEXT: role     e         warps [9], threads 288..319, no register budget
# CHECK-NEXT: barrier  b1        2 mbarriers at smem+7168 (8 B each), init_count 1, producers [q], consumers [r]
# CHECK-NEXT: barrier  b2        1 mbarrier at smem+7184 (8 B each), init_count 1, producers [r], consumers [q]
# CHECK-NEXT: barrier  b3        1 mbarrier at smem+7192 (8 B each), init_count 1, producers [q], consumers [r]
# CHECK-NEXT: regs     acc       64x64 f32, role r
# CHECK-NEXT: regs     t         64x64 f32, role r (derived)
# CHECK-NEXT: regs     m         64x1 f32, role r (derived)
# CHECK-NEXT: role r:
# CHECK-NEXT: wait(barrier=b3, stage=0)
# CHECK-NEXT: mma(acc=acc, a=a_s, b=b_s.T, init=True)
# CHECK-NEXT: mma_commit()
# CHECK-NEXT: mma_wait(pending=0)
# CHECK-NEXT: for s in range(0, n * 2, 1):
# CHECK-NEXT: wait(barrier=b1, stage=s)
# CHECK-NEXT: if s == 4 and n > 2:
# CHECK-NEXT: arrive(barrier=b2, stage=s, per="warpgroup", cluster=False)
# CHECK-NEXT: else:
# CHECK-NEXT: role_sync()
# CHECK-NEXT: arrive(barrier=b2, stage=s, per="warpgroup", cluster=False)
# CHECK-NEXT: t = scale(src=acc, factor=scale)
# CHECK-NEXT: m = rowmax(src=t)
# CHECK-NEXT: role q:
# CHECK-NEXT: a_s.tma_load(tensor=W, coords=(0, 0), barrier=b3, multicast=0)
# CHECK-NEXT: b_s.tma_load(tensor=W, coords=(0, 64), barrier=b3, multicast=0)
# CHECK-NEXT: for s in range(0, n * 2, 1):
# CHECK-NEXT: v.tma_load(tensor=A, coords=(0, 1, 2), stage=s, barrier=b1, multicast=0)
# CHECK-NEXT: wait(barrier=b2, stage=s)
# CHECK-NEXT: role e:
# CHECK-NEXT: role_sync()
