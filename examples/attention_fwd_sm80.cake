# Attention forward (FlashAttention-2's form) on Ampere and Ada with mma.sync:
# O = softmax(Q K^T / sqrt(D)) V and the log-sum-exp of every row, bf16 in,
# f32 accumulate, bf16 out; runs on Hopper too.
# target: sm_80
#
# Q, K, V and O are (B*H, S, D) row-major (batch and head flattened); LSE is
# (B*H, S) f32, the natural log of each row's sum of exp(q.k / sqrt(D)). One
# block per 128 query rows of one head (grid: S // 128 x B*H; S a multiple
# of 128, which the launcher checks through the tensors' tiles). One role of
# eight warps does everything, each warp 16 of the rows: Q is copied once,
# 128-key tiles of K and V stream through two 2-stage cp.async rings (every
# thread arrives on the tile's barrier once its chunks land), the next
# tile's K and V issued as soon as this tile's K is waited for, so they load
# during this tile's two products. S = Q K^T by mma.sync from shared memory,
# the online softmax in registers (running row maximum and row sum), and
# O += P V with P from registers (the accumulator layout's pairs are the A
# fragment of mma.sync, as FlashAttention-2 uses them) and V read MN-major
# (ldmatrix .trans). O goes out through Q's shared memory (after a role
# sync: the last tile's reads of Q come first). examples/attention_fwd_sm90a.cake
# is the Hopper form (TMA, wgmma, ping-pong warpgroups). CAUSAL = True (or
# cakec -DCAUSAL=True) masks keys after the query and stops at the
# diagonal (every row keeps key 0, so no row's maximum stays at its
# starting value). sm_89's and
# sm_120a's 99 KB of shared memory take -DBN=64.
#
# On an H100 (compiled for sm_90a) correct against float64 and
# sanitizer-clean, 265-275 TFLOP/s at B=4, H=32, S=4096..8192: 0.78x
# FlashAttention-2's own mma.sync kernel (PyTorch's flash backend) in the
# same process, causal 0.79-0.80x; 64-key tiles 0.68x, four warps of 32 rows
# with 32-key tiles 0.78x with a few spilled registers
# (bench/results/attention_sm80_2026-12-07).
CAUSAL = False                # -DCAUSAL=True: keys after the query masked, key tiles up to the diagonal
D = 128                       # head dimension
BM = 128                      # query rows per block: 16 per warp
BN = 128                      # keys per tile
WARPS = 8                     # the role's warps: 8 hold 16 rows each, 4 hold 32 (each K and V fragment used twice)
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453
Q_TILE = BM * D * 2           # bytes of the 128 x 128 bf16 Q (and O) tile
KV_TILE = BN * D * 2          # bytes of one BN x 128 bf16 K or V tile

@cake.schedule(grid=(S // BM, BH))
def attention_fwd_sm80(lm, Q: LM.tensor3d, K: LM.tensor3d, V: LM.tensor3d, O: LM.tensor3d, LSE: LM.tensor2d,
                       S: LM.i32, BH: LM.i32):
    pool = lm.smem(Q_TILE + 4 * KV_TILE + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=Q_TILE, shape=(BN, D), dtype=lm.bf16, stage=2, swizzle="128B")
    v_s = pool.view(offset=Q_TILE + 2 * KV_TILE, shape=(BN, D), dtype=lm.bf16, stage=2, swizzle="128B")
    o_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B", alias=True)   # Q's bytes, once Q is read
    lse_s = pool.view(offset=Q_TILE + 4 * KV_TILE, shape=(1, BM), dtype=lm.f32)
    if WARPS == 4:
        math = lm.role(warps=[0, 1, 2, 3])
    else:
        math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    s = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    o = lm.regs(shape=(BM, D), dtype=lm.f32, role=math)
    m_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    l_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    p16 = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)
    kring = lm.pipeline(stages=2)
    vring = lm.pipeline(stages=2)
    qbar = lm.barrier(count=1, prod=[math], cons=[math], init_count=WARPS * 32)
    kbar = lm.barrier(count=2, prod=[math], cons=[math], init_count=WARPS * 32, pipeline=kring)
    vbar = lm.barrier(count=2, prod=[math], cons=[math], init_count=WARPS * 32, pipeline=vring)
    q0 = lm.block_id(0) * BM
    if CAUSAL:
        n_kv = lm.max((q0 + BM) // BN, 1)   # key tiles up to the diagonal (BN divides BM)
    else:
        n_kv = lm.max(S // BN, 1)     # S is a positive multiple of BM, BN <= BM
    with math:
        q_s.cp_async(Q, coords=(0, q0, lm.block_id(1)), barrier=qbar)
        k_s.cp_async(K, coords=(0, 0, lm.block_id(1)), stage=0, barrier=kbar)
        v_s.cp_async(V, coords=(0, 0, lm.block_id(1)), stage=0, barrier=vbar)
        o = lm.fill(o, 0.0)
        m_run = lm.fill(m_run, -1.0e30)
        l_run = lm.fill(l_run, 0.0)
        lm.wait(qbar, stage=0)
        for j in lm.range(0, n_kv):
            lm.wait(kbar, stage=j)
            lm.role_sync()            # every warp is past tile j - 1's reads of the slots the next copies fill
            if j + 1 < n_kv:
                k_s.cp_async(K, coords=(0, (j + 1) * BN, lm.block_id(1)), stage=j + 1, barrier=kbar)
                v_s.cp_async(V, coords=(0, (j + 1) * BN, lm.block_id(1)), stage=j + 1, barrier=vbar)
            lm.mma(s, q_s, k_s[j].T, init=True)
            if CAUSAL:
                if j >= lm.block_id(0) * (BM // BN):   # tiles that reach past the block's first query
                    s = lm.tril(s, row=q0, col=j * BN)
            m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
            p = lm.exp2(s * SCALE_LOG2 - m_new)
            alpha = lm.exp2(m_run - m_new)
            l_run = l_run * alpha + lm.rowsum(p)
            m_run = m_new
            o = o * alpha
            p16 = lm.cast(p, lm.bf16)
            lm.wait(vbar, stage=j)
            lm.mma(o, p16, v_s[j])
        out = lm.cast(o / l_run, lm.bf16)
        lm.role_sync()                # every warp's last reads of Q come before O's stores over it
        o_s.store(out)
        lse_s.store((m_run + lm.log2(l_run)) * LN2)
        lm.role_sync()
        o_s.copy_to(O, coords=(0, q0, lm.block_id(1)))
        lse_s.copy_to(LSE, coords=(q0, lm.block_id(1)))
