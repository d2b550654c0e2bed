# The V copy issued before its own release wait (issue 34): the producer
# waits on 'kempty' first, whose arrivals follow the consumer's reads of K
# stage j and of V stage j - 1 only, so they do not say that V's slot for
# stage j is free; its own wait on 'vempty' comes after the copy. Passing
# near-miss: examples/attention_fwd_simple_sm90a.cake (wait, then copy).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# Attention forward (FlashAttention-style) on Hopper: O = softmax(Q K^T / sqrt(D)) V
# and the log-sum-exp of every row, bf16 in, f32 accumulate, bf16 out.
#
# Q, K, V and O are (B*H, S, D) row-major (batch and head flattened); LSE is (B*H, S) f32,
# the natural log of each row's sum of exp(q.k / sqrt(D)). One block per
# 128 query rows of one head (grid: S // 128 x B*H; S a multiple of 128,
# which the launcher checks through the tensors' tiles). A producer warpgroup
# loads the block's Q tile once and streams 128-key tiles of K and V
# through two 2-stage TMA rings; two consumer warpgroups (64 query rows
# each) compute S = Q K^T by wgmma, the online softmax in registers (running
# row maximum and row sum), and O += P V by wgmma with P from registers,
# issued right behind the next tile's Q K^T so that it runs during the
# softmax (FlashAttention-3's intra-warpgroup overlap).
# CAUSAL = True (or cakec -DCAUSAL=True) masks keys after the query and
# stops at the diagonal. examples/attention_fwd_sm90a.cake adds ping-pong
# ordering of the two consumer warpgroups.
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
def attention_fwd_simple(lm, Q: LM.tma3d, K: LM.tma3d, V: LM.tma3d, O: LM.tma3d, LSE: LM.tma2d, S: LM.i32, BH: LM.i32):
    pool = lm.smem(6 * TILE + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=TILE, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=3 * TILE, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")  # expected-note {{'v_s' declared here}}
    o_s = pool.view(offset=5 * TILE, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=6 * TILE, shape=(1, BM), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11], regs=240)
    s = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    o = lm.regs(shape=(BM, D), dtype=lm.f32, role=math)
    m_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    l_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    p16 = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)   # P of the previous tile, the A of O += P V
    kring = lm.pipeline(stages=STAGES)
    vring = lm.pipeline(stages=STAGES)
    qfull = lm.barrier(count=1, prod=[load], cons=[math])
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=2, pipeline=vring)
    q0 = lm.block_id(0) * BM
    if CAUSAL:
        n_kv = lm.block_id(0) + 1         # key tiles up to the diagonal (BN == BM)
    else:
        n_kv = S // BN
    with load:
        q_s.tma_load(Q, coords=(0, q0, lm.block_id(1)), stage=0, barrier=qfull)
        for j in lm.range(0, n_kv):
            lm.wait(kempty, stage=j)
            k_s.tma_load(K, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=kfull)
            v_s.tma_load(V, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=vfull)  # expected-error {{role 'load' overwrites stage j of 'v_s' when the ring wraps but never waits for role 'math' to release it}}
            lm.wait(vempty, stage=j)
    with math:
        o = lm.fill(o, 0.0)
        lm.wait(qfull, stage=0)
        # The first tile: S_0, its softmax, P_0.
        lm.wait(kfull, stage=0)
        lm.mma(s, q_s, k_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(kempty, stage=0, per="warpgroup")
        if CAUSAL:
            if lm.block_id(0) == 0:
                s = lm.tril(s, row=q0, col=0)
        m_run = lm.rowmax(s) * SCALE_LOG2
        p0 = lm.exp2(s * SCALE_LOG2 - m_run)
        l_run = lm.rowsum(p0)
        p16 = lm.cast(p0, lm.bf16)
        # Then S_j = Q K_j^T and O += P_{j-1} V_{j-1} behind it: the tensor
        # cores run the product while this warpgroup computes the softmax of
        # S_j (one wgmma group left in flight), and only then rescale O.
        for j in lm.range(1, n_kv):
            lm.wait(kfull, stage=j)
            lm.mma(s, q_s, k_s[j].T, init=True)
            lm.mma_commit()
            lm.wait(vfull, stage=j - 1)
            lm.mma(o, p16, v_s[j - 1])
            lm.mma_commit()
            lm.mma_wait(pending=1)
            lm.arrive(kempty, stage=j, per="warpgroup")
            if CAUSAL:
                if j == lm.block_id(0):
                    s = lm.tril(s, row=q0, col=j * BN)
            m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
            p = lm.exp2(s * SCALE_LOG2 - m_new)
            alpha = lm.exp2(m_run - m_new)
            l_run = l_run * alpha + lm.rowsum(p)
            m_run = m_new
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=j - 1, per="warpgroup")
            o = o * alpha
            p16 = lm.cast(p, lm.bf16)
        lm.wait(vfull, stage=n_kv - 1)
        lm.mma(o, p16, v_s[n_kv - 1])
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(vempty, stage=n_kv - 1, per="warpgroup")
        out = lm.cast(o / l_run, lm.bf16)
        o_s.store(out)
        lse_s.store((m_run + lm.log2(l_run)) * LN2)
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, q0, lm.block_id(1)))
        lse_s.tma_store(LSE, coords=(q0, lm.block_id(1)))
        lm.tma_store_wait()
