# Near misses of fail_warpgroup_read_one.cake, a role of one warpgroup:
# a_rows stores A from an accumulator-layout fragment, so each warp stored
# the 16-row band its part of the wgmma reads, and its fence and warp sync
# order them (lm.fence_proxy() lowers to both, as FA3 orders P before its
# P . V); b_operand stores B, with lm.role_sync() after the fence.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# RUN: FileCheck %s --input-file=%t.cu
# expected-no-diagnostics
# CHECK-LABEL: __global__ void __launch_bounds__(256, 1) a_rows(
# CHECK: cake_fence_proxy_async();
# CHECK-NEXT: __syncwarp();
# CHECK-NOT: cake_named_barrier_sync
# CHECK: cake_wgmma_fence();
# CHECK-LABEL: __global__ void __launch_bounds__(256, 1) b_operand(
@cake.schedule()
def a_rows(lm, V: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    p_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    v_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        v_s.tma_load(V, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        p_s.store(s)
        lm.fence_proxy()
        lm.wait(ready, stage=0)
        lm.mma(o, p_s, v_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

@cake.schedule()
def b_operand(lm, Q: LM.tma2d, O: LM.tma2d):
    pool = lm.smem(65536)
    q_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    b_s = pool.view(offset=8192, shape=(128, 64), dtype=lm.bf16, swizzle="128B")
    o_s = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    s = lm.regs(shape=(128, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ready = lm.barrier(count=1, prod=[load], cons=[math])
    with load:
        q_s.tma_load(Q, coords=(0, 0), barrier=ready)
    with math:
        s = lm.fill(s, 1.0)
        b_s.store(s)
        lm.fence_proxy()
        lm.role_sync()
        lm.wait(ready, stage=0)
        lm.mma(o, q_s, b_s.T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
