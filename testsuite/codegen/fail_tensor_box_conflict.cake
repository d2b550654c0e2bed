# One tensor map per tensor: copying a tensor with two different boxes is an
# error at the second copy, found by the data-consistency gate, so checking
# alone (-fsyntax-only) and lowering agree.
# RUN: %cakec -verify --target=sm_90a -fsyntax-only %s
# RUN: %cakec -verify --target=sm_90a --emit=cuda %s
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M            # two consumer warpgroups of 64 rows
BN = WGMMA_N_MAX            # one 64x256 wgmma per warpgroup and k-step
BK = SWIZZLE_128B_BF16_K    # one 128-byte swizzled row of bf16 per stage
STAGES = 3

@cake.schedule(grid=(M // BM, N // BN))
def gemm_bf16(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d,  # expected-warning {{tensor 'C' is declared but never used}}
              M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(212992)
    a_s = pool.view(offset=0, shape=(BM, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    b_s = pool.view(offset=STAGES * BM * BK * 2, shape=(BN, BK), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    c_s = pool.view(offset=STAGES * (BM + BN) * BK * 2, shape=(BM, BN), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=232)
    acc = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=STAGES)
    full = lm.barrier(count=STAGES, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=ring)
    with load:
        for k in lm.range(0, K // BK):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * BK, lm.block_id(0) * BM), stage=k, barrier=full)  # expected-note {{the tensor map of 'A' takes its box from this copy}} expected-error {{'lm.tma_load' reads a tile of 'A', which the kernel also writes, outside the tiles its own role writes}}
            b_s.tma_load(B, coords=(k * BK, lm.block_id(1) * BN), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // BK):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k, per="warpgroup")
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(A, coords=(lm.block_id(1) * BN, lm.block_id(0) * BM))  # expected-error {{tensor 'A' is copied with two different boxes ('128x64 bf16, swizzle 128B' and '128x256 bf16, swizzle none')}} expected-note {{'A' is written here}}
        lm.tma_store_wait()
