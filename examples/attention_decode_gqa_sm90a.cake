# Decode attention with grouped query heads (GQA) on Hopper: one query token per
# sequence, GROUP query heads sharing each key/value head, O = softmax(q K^T / sqrt(D)) V
# and each head's log-sum-exp; bf16 in, f32 accumulate, bf16 out.
#
# Layouts (G = batch * KV heads, row-major): Q and O are (G, GROUP, D), the
# GROUP query heads of one KV head (torch's (B, H_Q, 1, D) with H_Q = GROUP *
# H_KV, as it is); K and V are (G, L, D) (torch's (B, H_KV, L, D)); LSE is
# (G, GROUP) f32, the natural log of each head's sum of exp(q.k / sqrt(D)).
# The keys are the first L // BN * BN rows of K and V: L a multiple of BN,
# at least BN (the grid is empty below, which the launcher refuses) and at
# most K's and V's rows (the launcher checks every tile the kernel reads).
#
# One block per KV head of a sequence: a producer warpgroup loads the
# group's queries once and streams BN-key tiles of K and V through two TMA
# rings; one consumer warpgroup computes S = Q K^T by wgmma, the online
# softmax in registers, and O += P V by wgmma with P from registers, issued
# behind the next tile's Q K^T (examples/attention_fwd_simple_sm90a.cake's
# loop). wgmma takes 64 rows: Q's shape is declared (G, GROUP, D), so TMA
# fills the 64 - GROUP rows past a group's heads with zeros when it loads
# them (they compute a harmless softmax of zeros) and drops them when it
# stores O and LSE. The product is bound by reading K and V once.
# target: sm_90a
from stdlib.hopper import WGMMA_M

D = 128                       # head dimension
GROUP = 8                     # query heads per KV head
BM = WGMMA_M                  # the wgmma's rows: GROUP heads, the rest zeros
BN = 128                      # keys per tile
STAGES = 2
BLOCKS = 1                    # blocks per multiprocessor it is built for (blocks_per_sm=)
O_OVER_Q = 0                  # 1: O's staging tile over Q's bytes (alias=True; the last wgmma has read Q): 16 KB less
MATH_REGS = 240               # the math warpgroup's registers (232 with two blocks: 2 x (232 + 24) x 128 fills the file)
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453

@cake.schedule(grid=(G * lm.min(1, L // BN),), blocks_per_sm=BLOCKS)  # one block per KV head of a sequence
def attention_decode_gqa(lm, Q: LM.tma3d[G, GROUP, D], K: LM.tma3d, V: LM.tma3d, O: LM.tma3d[G, GROUP, D],
                         LSE: LM.tma2d[G, GROUP], L: LM.i32, G: LM.i32):
    pool = lm.smem((2 - O_OVER_Q) * BM * D * 2 + 2 * STAGES * BN * D * 2 + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=BM * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=BM * D * 2 + STAGES * BN * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES,
                    swizzle="128B")
    o_s = pool.view(offset=(1 - O_OVER_Q) * (BM * D * 2 + 2 * STAGES * BN * D * 2), shape=(BM, D), dtype=lm.bf16,
                    swizzle="128B", alias=O_OVER_Q == 1)
    lse_s = pool.view(offset=(2 - O_OVER_Q) * BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(1, BM), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=MATH_REGS)
    s = lm.regs(shape=(BM, BN), dtype=lm.f32, role=math)
    o = lm.regs(shape=(BM, D), dtype=lm.f32, role=math)
    m_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    l_run = lm.regs(shape=(BM, 1), dtype=lm.f32, role=math)
    p16 = lm.regs(shape=(BM, BN), dtype=lm.bf16, role=math)   # P of the previous tile, the A of O += P V
    kring = lm.pipeline(stages=STAGES)
    vring = lm.pipeline(stages=STAGES)
    qfull = lm.barrier(count=1, prod=[load], cons=[math])
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=vring)
    g = lm.block_id(0)
    n_kv = lm.max(1, L // BN)     # L // BN: the grid is empty below one tile (the gate sees n_kv >= 1)
    with load:
        q_s.tma_load(Q, coords=(0, 0, g), stage=0, barrier=qfull)
        for j in lm.range(0, n_kv):
            lm.wait(kempty, stage=j)
            k_s.tma_load(K, coords=(0, j * BN, g), stage=j, barrier=kfull)
            lm.wait(vempty, stage=j)
            v_s.tma_load(V, coords=(0, j * BN, g), stage=j, barrier=vfull)
    with math:
        o = lm.fill(o, 0.0)
        lm.wait(qfull, stage=0)
        lm.wait(kfull, stage=0)
        lm.mma(s, q_s, k_s[0].T, init=True)
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(kempty, stage=0, per="warpgroup")
        m_run = lm.rowmax(s) * SCALE_LOG2
        p0 = lm.exp2(s * SCALE_LOG2 - m_run)
        l_run = lm.rowsum(p0)
        p16 = lm.cast(p0, lm.bf16)
        for j in lm.range(1, n_kv):
            lm.wait(kfull, stage=j)
            lm.mma(s, q_s, k_s[j].T, init=True)
            lm.mma_commit()
            lm.wait(vfull, stage=j - 1)
            lm.mma(o, p16, v_s[j - 1])
            lm.mma_commit()
            lm.mma_wait(pending=1)
            lm.arrive(kempty, stage=j, per="warpgroup")
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
        o_s.tma_store(O, coords=(0, 0, g))
        lse_s.tma_store(LSE, coords=(0, g))
        lm.tma_store_wait()
