# Regression (found by FuzzPipeline, UBSan: signed overflow in derived
# facts): constants at the edge of int64 give diagnostics, never overflow.
# Derived offsets, thread counts and byte counts saturate and are reported
# as over the limits. This test also runs in the sanitizer build, which halts
# on undefined behaviour.
# RUN: not %cakec -fsyntax-only --target=sm_100a %s 2>&1 | FileCheck %s
@cake.schedule()
def k(lm, A: LM.tma2d):
    pool = lm.smem(9223372036854775000)
    p2 = lm.smem(65536)
    v = pool.view(offset=9223372036854775000, shape=(1000,), dtype=lm.i8)
    r = lm.role(warps=[9223372036854775807])
    q = lm.role(warps=[0])
    b = lm.barrier(count=9223372036854775807, prod=[q], cons=[r])
    t = lm.tmem(cols=9223372036854775807, width=9223372036854775807, shape=(128, 4611686018427387904), dtype=lm.f32)
    with q:
        for s in lm.range(-2147483648, 2147483647):
            v.tma_load(A, coords=(0, 0), barrier=b)
    with r:
        lm.wait(b, stage=0)
        lm.arrive(b, stage=0, per="thread")
# Loop bounds past 32 bits are refused by sema (fail_constant_range.cake,
# loop_bound_overflow.test); these are the widest it takes.
# CHECK-DAG: error: kernel 'k' needs 9223372036854775807 bytes of shared memory
# CHECK-DAG: error: role 'r' uses warp 9223372036854775807, making a block of 9223372036854775807 threads; the limit is 1024
# CHECK-DAG: error: the TMEM region 't' ends at column 9223372036854775807; an SM has 512 columns
# CHECK-DAG: error: view 'v' spans bytes [9223372036854775000, 9223372036854775807) of pool 'pool', which has 9223372036854775000 bytes
