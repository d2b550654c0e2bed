# Attention forward (FlashAttention-3 style) on Hopper: O = softmax(Q K^T / sqrt(D)) V
# and the log-sum-exp of every row, bf16 in, f32 accumulate, bf16 out.
#
# Q, K, V and O are (B*H, S, D) row-major (batch and head flattened); LSE is (B*H, S) f32,
# the natural log of each row's sum of exp(q.k / sqrt(D)). One block per
# 128 query rows of one head (grid: S // 128 x B*H; S a multiple of 128,
# which the launcher checks through the tensors' tiles). A producer warpgroup
# loads the block's two 64-row Q tiles once and streams 128-key tiles of K
# and V through two 2-stage TMA rings that both consumers read. Each
# consumer warpgroup (roles wg0, wg1: 64 query rows each) computes
# S = Q K^T by wgmma, the online softmax in registers (running row maximum
# and row sum) and O += P V by wgmma with P from registers, issued right
# behind the next tile's Q K^T so that it runs during the softmax
# (intra-warpgroup overlap). The two consumers take turns issuing their
# products (ping-pong through the barriers turn0 and turn1), so one's
# softmax overlaps the other's matrix multiplies.
# CAUSAL = True (or cakec -DCAUSAL=True) masks keys after the query and
# stops at the diagonal. examples/attention_fwd_simple_sm90a.cake is the same
# kernel with one consumer role of two warpgroups and no turns.
# target: sm_90a
from stdlib.hopper import WGMMA_M, SWIZZLE_128B_BF16_K

CAUSAL = False
D = 128                       # head dimension
BM = 2 * WGMMA_M              # query rows per block: 64 per consumer warpgroup
BN = 128                      # keys per tile
STAGES = 2
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453
TILE = BM * D * 2             # bytes of one 128 x 128 bf16 tile

@cake.schedule(grid=(S // BM, BH))
def attention_fwd(lm, Q: LM.tma3d, K: LM.tma3d, V: LM.tma3d, O: LM.tma3d, LSE: LM.tma2d, S: LM.i32, BH: LM.i32):
    pool = lm.smem(6 * TILE + BM * 4)
    q_s0 = pool.view(offset=0, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B")
    q_s1 = pool.view(offset=TILE // 2, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=TILE, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=3 * TILE, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    o_s0 = pool.view(offset=5 * TILE, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B")
    o_s1 = pool.view(offset=5 * TILE + TILE // 2, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B")
    lse_s0 = pool.view(offset=6 * TILE, shape=(1, BM // 2), dtype=lm.f32)
    lse_s1 = pool.view(offset=6 * TILE + BM * 2, shape=(1, BM // 2), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=240)
    wg1 = lm.role(warps=[8, 9, 10, 11], regs=240)
    s0 = lm.regs(shape=(BM // 2, BN), dtype=lm.f32, role=wg0)
    o0 = lm.regs(shape=(BM // 2, D), dtype=lm.f32, role=wg0)
    m0 = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg0)
    l0 = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg0)
    pb0 = lm.regs(shape=(BM // 2, BN), dtype=lm.bf16, role=wg0)
    s1 = lm.regs(shape=(BM // 2, BN), dtype=lm.f32, role=wg1)
    o1 = lm.regs(shape=(BM // 2, D), dtype=lm.f32, role=wg1)
    m1 = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg1)
    l1 = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg1)
    pb1 = lm.regs(shape=(BM // 2, BN), dtype=lm.bf16, role=wg1)
    kring = lm.pipeline(stages=STAGES)
    vring = lm.pipeline(stages=STAGES)
    qfull = lm.barrier(count=1, prod=[load], cons=[wg0, wg1])
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[wg0, wg1], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[wg0, wg1], cons=[load], init_count=2, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[wg0, wg1], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[wg0, wg1], cons=[load], init_count=2, pipeline=vring)
    # Ping-pong: the two warpgroups take turns issuing their tile's wgmmas,
    # so one's softmax runs while the other's products occupy the tensor
    # cores. wg0 has the first turn (its barrier starts with one credit).
    turn0 = lm.barrier(count=1, prod=[wg1], cons=[wg0], credits=1)
    turn1 = lm.barrier(count=1, prod=[wg0], cons=[wg1], credits=0)
    q0 = lm.block_id(0) * BM
    if CAUSAL:
        n_kv = lm.block_id(0) + 1         # key tiles up to the diagonal (BN == BM)
    else:
        n_kv = S // BN
    with load:
        q_s0.tma_load(Q, coords=(0, q0, lm.block_id(1)), stage=0, barrier=qfull)
        q_s1.tma_load(Q, coords=(0, q0 + BM // 2, lm.block_id(1)), stage=0, barrier=qfull)
        for j in lm.range(0, n_kv):
            lm.wait(kempty, stage=j)
            k_s.tma_load(K, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=kfull)
            lm.wait(vempty, stage=j)
            v_s.tma_load(V, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=vfull)
    with wg0:
        o0 = lm.fill(o0, 0.0)
        lm.wait(qfull, stage=0)
        lm.wait(kfull, stage=0)
        lm.mma(s0, q_s0, k_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(kempty, stage=0, per="warpgroup")
        if CAUSAL:
            if lm.block_id(0) == 0:
                s0 = lm.tril(s0, row=q0, col=0)
        m0 = lm.rowmax(s0) * SCALE_LOG2
        p0 = lm.exp2(s0 * SCALE_LOG2 - m0)
        l0 = lm.rowsum(p0)
        pb0 = lm.cast(p0, lm.bf16)
        for j in lm.range(1, n_kv):
            lm.wait(kfull, stage=j)
            lm.wait(turn0, stage=j - 1)
            lm.mma(s0, q_s0, k_s[j].T, init=True)
            lm.mma_commit()
            lm.wait(vfull, stage=j - 1)
            lm.mma(o0, pb0, v_s[j - 1])
            lm.mma_commit()
            lm.arrive(turn1, stage=j - 1)
            lm.mma_wait(pending=1)
            lm.arrive(kempty, stage=j, per="warpgroup")
            if CAUSAL:
                if j == lm.block_id(0):
                    s0 = lm.tril(s0, row=q0, col=j * BN)
            m_new = lm.maximum(m0, lm.rowmax(s0) * SCALE_LOG2)
            p = lm.exp2(s0 * SCALE_LOG2 - m_new)
            alpha = lm.exp2(m0 - m_new)
            l0 = l0 * alpha + lm.rowsum(p)
            m0 = m_new
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=j - 1, per="warpgroup")
            o0 = o0 * alpha
            pb0 = lm.cast(p, lm.bf16)
        lm.wait(vfull, stage=n_kv - 1)
        lm.mma(o0, pb0, v_s[n_kv - 1])
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(vempty, stage=n_kv - 1, per="warpgroup")
        out = lm.cast(o0 / l0, lm.bf16)
        o_s0.store(out)
        lse_s0.store((m0 + lm.log2(l0)) * LN2)
        lm.fence_proxy()
        lm.role_sync()
        o_s0.tma_store(O, coords=(0, q0, lm.block_id(1)))
        lse_s0.tma_store(LSE, coords=(q0, lm.block_id(1)))
        lm.tma_store_wait()
    with wg1:
        o1 = lm.fill(o1, 0.0)
        lm.wait(qfull, stage=0)
        lm.wait(kfull, stage=0)
        lm.mma(s1, q_s1, k_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(kempty, stage=0, per="warpgroup")
        if CAUSAL:
            if lm.block_id(0) == 0:
                s1 = lm.tril(s1, row=q0 + BM // 2, col=0)
        m1 = lm.rowmax(s1) * SCALE_LOG2
        p0 = lm.exp2(s1 * SCALE_LOG2 - m1)
        l1 = lm.rowsum(p0)
        pb1 = lm.cast(p0, lm.bf16)
        for j in lm.range(1, n_kv):
            lm.wait(kfull, stage=j)
            lm.wait(turn1, stage=j - 1)
            lm.mma(s1, q_s1, k_s[j].T, init=True)
            lm.mma_commit()
            lm.wait(vfull, stage=j - 1)
            lm.mma(o1, pb1, v_s[j - 1])
            lm.mma_commit()
            lm.arrive(turn0, stage=j - 1)
            lm.mma_wait(pending=1)
            lm.arrive(kempty, stage=j, per="warpgroup")
            if CAUSAL:
                if j == lm.block_id(0):
                    s1 = lm.tril(s1, row=q0 + BM // 2, col=j * BN)
            m_new = lm.maximum(m1, lm.rowmax(s1) * SCALE_LOG2)
            p = lm.exp2(s1 * SCALE_LOG2 - m_new)
            alpha = lm.exp2(m1 - m_new)
            l1 = l1 * alpha + lm.rowsum(p)
            m1 = m_new
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=j - 1, per="warpgroup")
            o1 = o1 * alpha
            pb1 = lm.cast(p, lm.bf16)
        lm.wait(vfull, stage=n_kv - 1)
        lm.mma(o1, pb1, v_s[n_kv - 1])
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(vempty, stage=n_kv - 1, per="warpgroup")
        out = lm.cast(o1 / l1, lm.bf16)
        o_s1.store(out)
        lse_s1.store((m1 + lm.log2(l1)) * LN2)
        lm.fence_proxy()
        lm.role_sync()
        o_s1.tma_store(O, coords=(0, q0 + BM // 2, lm.block_id(1)))
        lse_s1.tma_store(LSE, coords=(q0 + BM // 2, lm.block_id(1)))
        lm.tma_store_wait()
