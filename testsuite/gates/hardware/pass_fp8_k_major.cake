# The near-miss of fail_fp8_operand_major.cake: fp8 operands read K-major,
# A an (M, K) e5m2 tile and B an (N, K) e4m3 tile used as '.T' (the types
# mix). It passes the gates and lowers to the k32 wgmma of that pair, four
# per 128-byte row of K (descriptors 32 bytes apart), and assembles.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# RUN: FileCheck %s < %t.cu
# expected-no-diagnostics
# CHECK: // wgmma: D[64x256] (+)= A[64x32] . B[32x256], e5m2 x e4m3; A from shared memory (a K-major descriptor), B a K-major descriptor;
# CHECK: static __device__ __forceinline__ void cake_wgmma_m64n256k32_f32_e5m2_e4m3(float *d, uint64_t desc_a, uint64_t desc_b, int32_t accumulate) {
# CHECK: "wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e4m3\n"
# CHECK: "%128, %129, p, 1, 1;\n"
# CHECK: // 128x256x128 per block: 2 warpgroup(s) x 1 m64 block(s) x 4 k32 step(s) of m64n256k32
# CHECK: cake_wgmma_m64n256k32_f32_e5m2_e4m3(acc + 0, cake_da, cake_db, cake_accumulate);
# CHECK-NEXT: cake_wgmma_m64n256k32_f32_e5m2_e4m3(acc + 0, cake_da + 2u, cake_db + 2u, 1);
# CHECK-NEXT: cake_wgmma_m64n256k32_f32_e5m2_e4m3(acc + 0, cake_da + 4u, cake_db + 4u, 1);
# CHECK-NEXT: cake_wgmma_m64n256k32_f32_e5m2_e4m3(acc + 0, cake_da + 6u, cake_db + 6u, 1);
# CHECK-NOT: cake_wgmma_m64n256k32
# REQUIRES: nvcc
# RUN: %nvcc -O3 -c %t.cu -o %t.o
@cake.schedule(grid=(M // 128, N // 256))
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(3 * (128 + 256) * 128 + 128 * 256 * 2)
    a_s = pool.view(offset=0, shape=(128, 128), dtype=lm.e5m2, stage=3, swizzle="128B")
    b_s = pool.view(offset=3 * 128 * 128, shape=(256, 128), dtype=lm.e4m3, stage=3, swizzle="128B")
    c_s = pool.view(offset=3 * (128 + 256) * 128, shape=(128, 256), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(128, 256), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // 128):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 128, lm.block_id(0) * 128), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 128, lm.block_id(1) * 256), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 128):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(1) * 256, lm.block_id(0) * 128))
        lm.tma_store_wait()

