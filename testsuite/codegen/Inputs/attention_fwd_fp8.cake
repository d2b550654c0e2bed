# The attention forward of examples/attention_fwd_sm90a.cake with fp8
# (e4m3) Q, K and V and unit scales: S = Q K^T by fp8 wgmma, P cast to e4m3
# and O += P V by fp8 wgmma, bf16 O, f32 LSE. fp8 wgmma reads B K-major, so
# V comes transposed (VT: (B*H, D, S)). P stays in registers (P_REGS, FA3's
# form): the lowering rearranges the accumulator layout's e4m3 pairs into
# wgmma's 8-bit A fragment by shuffles within each quad. With
# -DP_REGS=False P goes through a swizzled view (p_s) of each consumer,
# fenced and synchronised before the wgmma reads it. FA3 also transposes V
# in shared memory, which is not lowered yet
# (testsuite/codegen/attention_fp8_lowering.test).
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

CAUSAL = False
P_REGS = True                 # P . V with P from registers; False: through p_s
D = 128                       # head dimension
BM = 2 * WGMMA_M              # query rows per block: 64 per consumer warpgroup
BN = 128                      # keys per tile
STAGES = 2
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453
T8 = BN * D                   # bytes of one 128 x 128 fp8 tile

@cake.schedule(grid=(S // BM, BH))
def attention_fwd_fp8(lm, Q: LM.tma3d, K: LM.tma3d, VT: LM.tma3d, O: LM.tma3d, LSE: LM.tma2d, S: LM.i32, BH: LM.i32):
    pool = lm.smem(8 * T8 + BM * 4)
    k_s = pool.view(offset=T8, shape=(BN, D), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    vt_s = pool.view(offset=3 * T8, shape=(D, BN), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    # The two consumers: a role family (members wg[0], wg[1]), member i
    # taking query rows q0 + 64 i. Each has its own Q tile, output and LSE
    # staging views (q_s[1] right after q_s[0], ...) and fragments.
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]], regs=240)
    q_s = pool.view(offset=0, shape=(BM // 2, D), dtype=lm.e4m3, swizzle="128B", role=wg)
    if not P_REGS:
        p_s = pool.view(offset=5 * T8, shape=(BM // 2, BN), dtype=lm.e4m3, swizzle="128B", role=wg)
    o_s = pool.view(offset=6 * T8, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B", role=wg)
    lse_s = pool.view(offset=8 * T8, shape=(1, BM // 2), dtype=lm.f32, role=wg)
    s = lm.regs(shape=(BM // 2, BN), dtype=lm.f32, role=wg)
    o = lm.regs(shape=(BM // 2, D), dtype=lm.f32, role=wg)
    m = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg)
    l = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg)
    pb = lm.regs(shape=(BM // 2, BN), dtype=lm.e4m3, role=wg)
    kring = lm.pipeline(stages=STAGES)
    vring = lm.pipeline(stages=STAGES)
    qfull = lm.barrier(count=1, prod=[load], cons=[wg])
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[wg], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[wg], cons=[load], init_count=2, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[wg], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[wg], cons=[load], init_count=2, pipeline=vring)
    # Ping-pong: the two warpgroups take turns issuing their tile's wgmmas,
    # so one's softmax runs while the other's products occupy the tensor
    # cores. wg[0] has the first turn (its barrier starts with one credit).
    turn0 = lm.barrier(count=1, prod=[wg[1]], cons=[wg[0]], credits=1)
    turn1 = lm.barrier(count=1, prod=[wg[0]], cons=[wg[1]], credits=0)
    turn = [turn0, turn1]             # member i waits on turn[i] and hands the turn on with turn[1 - i]
    q0 = lm.block_id(0) * BM
    if CAUSAL:
        n_kv = lm.block_id(0) + 1         # key tiles up to the diagonal (BN == BM)
    else:
        n_kv = S // BN
    with load:
        q_s[0].tma_load(Q, coords=(0, q0, lm.block_id(1)), stage=0, barrier=qfull)
        q_s[1].tma_load(Q, coords=(0, q0 + BM // 2, lm.block_id(1)), stage=0, barrier=qfull)
        for j in lm.range(0, n_kv):
            lm.wait(kempty, stage=j)
            k_s.tma_load(K, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=kfull)
            lm.wait(vempty, stage=j)
            vt_s.tma_load(VT, coords=(j * BN, 0, lm.block_id(1)), stage=j, barrier=vfull)
    with wg as i:
        o = lm.fill(o, 0.0)
        lm.wait(qfull, stage=0)
        lm.wait(kfull, stage=0)
        lm.mma(s, q_s, k_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(kempty, stage=0, per="warpgroup")
        if CAUSAL:
            if lm.block_id(0) == 0:
                s = lm.tril(s, row=q0 + i * (BM // 2), col=0)
        m = lm.rowmax(s) * SCALE_LOG2
        p0 = lm.exp2(s * SCALE_LOG2 - m)
        l = lm.rowsum(p0)
        pb = lm.cast(p0, lm.e4m3)
        if not P_REGS:
            p_s.store(pb)
            lm.fence_proxy()
            lm.role_sync()
        for j in lm.range(1, n_kv):
            lm.wait(kfull, stage=j)
            lm.wait(turn[i], stage=j - 1)
            lm.mma(s, q_s, k_s[j].T, init=True)
            lm.mma_commit()
            lm.wait(vfull, stage=j - 1)
            if P_REGS:
                lm.mma(o, pb, vt_s[j - 1].T)
            else:
                lm.mma(o, p_s, vt_s[j - 1].T)
            lm.mma_commit()
            lm.arrive(turn[1 - i], stage=j - 1)
            lm.mma_wait(pending=1)
            lm.arrive(kempty, stage=j, per="warpgroup")
            if CAUSAL:
                if j == lm.block_id(0):
                    s = lm.tril(s, row=q0 + i * (BM // 2), col=j * BN)
            m_new = lm.maximum(m, lm.rowmax(s) * SCALE_LOG2)
            p = lm.exp2(s * SCALE_LOG2 - m_new)
            alpha = lm.exp2(m - m_new)
            l = l * alpha + lm.rowsum(p)
            m = m_new
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=j - 1, per="warpgroup")
            o = o * alpha
            pb = lm.cast(p, lm.e4m3)
            if not P_REGS:
                p_s.store(pb)
                lm.fence_proxy()
                lm.role_sync()
        lm.wait(vfull, stage=n_kv - 1)
        if P_REGS:
            lm.mma(o, pb, vt_s[n_kv - 1].T)
        else:
            lm.mma(o, p_s, vt_s[n_kv - 1].T)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(vempty, stage=n_kv - 1, per="warpgroup")
        out = lm.cast(o / l, lm.bf16)
        o_s.store(out)
        lse_s.store((m + lm.log2(l)) * LN2)
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, q0 + i * (BM // 2), lm.block_id(1)))
        lse_s.tma_store(LSE, coords=(q0 + i * (BM // 2), lm.block_id(1)))
        lm.tma_store_wait()
