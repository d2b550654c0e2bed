# Decode attention with grouped query heads (GQA) on Hopper over a paged KV
# cache, split over blocks (split-KV): the schedule of
# attention_decode_gqa_splitkv_sm90a.cake with each key tile's page read from
# a block table in device memory (lm.load_scalar), as vLLM, SGLang and
# FlashInfer lay a cache out: one query token per sequence, GROUP query
# heads sharing each of HKV key/value heads, O = softmax(q K^T / sqrt(D)) V
# and each head's log-sum-exp; bf16 in, f32 accumulate, bf16 out.
#
# Layouts (G = B * HKV, head h of sequence b at g = b HKV + h):
# - Q and O (G, GROUP, D), LSE (G, GROUP) f32, as in the unpaged examples;
# - K and V the page pool in FlashInfer's HND layout, pages of PAGE tokens:
#   (NP * HKV, PAGE, D), page p's head h at row p HKV + h;
# - BT (B, MAXP) i32, the block table: sequence b's token t lies in page
#   BT[b, t // PAGE] at row t % PAGE. Every sequence has L tokens (the keys
#   are the first L // BN * BN); each entry read lies in [0, NP) or the
#   kernel stops naming the read. PAGE is a multiple of BN.
#
# S = min(SPLIT, L // (BN * MIN_TILES), SMS // G) blocks, at least 1, share each KV head;
# block z takes the key tiles z, z + S, ..., stores its normalised partial
# (its GROUP rows) and log2-sum-exp into the workspace and counts itself in;
# the last block weighs the S partials in split order, resets the counter
# and stores O and LSE. (z + j S never passes the last tile, n_kv - 1; the
# load role writes lm.min(z + j S, n_kv - 1) all the same, so that the
# launcher's bounds, which take z and j each at their largest, see the
# block table's columns and the pages' rows end where the tiles do.)
#
# The launcher takes a workspace of
# attention_decode_gqa_paged_workspace_size(L, G) bytes, zero-filled before
# the first launch at those L, G (the kernel leaves the counters zero).
# target: sm_90a
from stdlib.hopper import WGMMA_M

D = 128                       # head dimension
GROUP = 8                     # query heads per KV head
PART_ROWS = GROUP             # the rows of a partial the blocks store and the last reads back (first_rows=)
HKV = 8                       # KV heads per sequence
PAGE = 128                    # tokens per page, a multiple of BN
BM = WGMMA_M                  # the wgmma's rows: GROUP heads, the rest zeros
BN = 128                      # keys per tile
STAGES = 2
SPLIT = 16                    # at most this many blocks per KV head
MIN_TILES = 4                 # at least this many key tiles per block (fewer splits, a shorter combine: 1.23x at B = 1, L = 4096 on the H200)
SMS = 132                     # the H200's multiprocessors: split only to fill them
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453

@cake.schedule(grid=(G * lm.min(1, L // BN), lm.max(1, lm.min(lm.min(SPLIT, L // (BN * MIN_TILES)), SMS // G))))  # S blocks per KV head
def attention_decode_gqa_paged(lm, Q: LM.tma3d[G, GROUP, D], K: LM.tma3d, V: LM.tma3d, BT: LM.tensor2d[B, MAXP],
                               O: LM.tma3d[G, GROUP, D], LSE: LM.tma2d[G, GROUP], L: LM.i32, G: LM.i32, B: LM.i32,
                               MAXP: LM.i32, NP: LM.i32):
    pool = lm.smem(2 * BM * D * 2 + 2 * STAGES * BN * D * 2 + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=BM * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=BM * D * 2 + STAGES * BN * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES,
                    swizzle="128B")
    o_s = pool.view(offset=BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=2 * BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(1, BM), dtype=lm.f32)
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(lm.max(1, lm.min(lm.min(SPLIT, L // (BN * MIN_TILES)), SMS // G)) * G * PART_ROWS, D), dtype=lm.f32)
    part_lse = lm.workspace(shape=(lm.max(1, lm.min(lm.min(SPLIT, L // (BN * MIN_TILES)), SMS // G)) * G * PART_ROWS, 1), dtype=lm.f32)
    load = lm.role(warps=[0, 1, 2, 3], regs=24)
    math = lm.role(warps=[4, 5, 6, 7], regs=240)
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
    z = lm.block_id(1)
    S = lm.num_blocks(1)
    n_kv = lm.max(1, L // BN)     # L // BN: the grid is empty below one tile
    mine = lm.max(1, (n_kv + S - 1 - z) // S)   # this block's key tiles z + i S; S <= n_kv, so at least one
    with load:
        q_s.tma_load(Q, coords=(0, 0, g), stage=0, barrier=qfull)
        b = g // HKV
        h = g % HKV
        for j in lm.range(0, mine):
            t = lm.min(z + j * S, n_kv - 1)            # the key tile, PAGE // BN to a page (the min: see below)
            page = lm.load_scalar(BT, coords=(t // (PAGE // BN), b), lo=0, hi=NP)
            row = t % (PAGE // BN) * BN                # its first row in the page (so the launcher sees it ends by PAGE)
            lm.wait(kempty, stage=j)
            k_s.tma_load(K, coords=(0, row, page * HKV + h), stage=j, barrier=kfull)
            lm.wait(vempty, stage=j)
            v_s.tma_load(V, coords=(0, row, page * HKV + h), stage=j, barrier=vfull)
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
        for j in lm.range(1, mine):
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
        lm.wait(vfull, stage=mine - 1)
        lm.mma(o, p16, v_s[mine - 1])
        lm.mma_commit()
        lm.mma_wait(pending=0)
        lm.arrive(vempty, stage=mine - 1, per="warpgroup")
        rows = lm.num_blocks(0) * PART_ROWS            # the rows of one split's partials (the grid has G blocks in x)
        lm.store_tile(part, coords=(0, z * rows + g * PART_ROWS), src=o / l_run, first_rows=PART_ROWS)
        lm.store_tile(part_lse, coords=(0, z * rows + g * PART_ROWS), src=m_run + lm.log2(l_run), first_rows=PART_ROWS)
        before = lm.atomic(arrived, coords=(g,), value=1, op="add", order="acq_rel")
        if before == S - 1:                            # the last block of the head: the combine
            m_all = lm.load_tile(part_lse, coords=(0, g * PART_ROWS), shape=(BM, 1), dtype=lm.f32, layout="accumulator",
                                 first_rows=PART_ROWS)
            o = lm.load_tile(part, coords=(0, g * PART_ROWS), shape=(BM, D), dtype=lm.f32, layout="accumulator",
                             first_rows=PART_ROWS)
            l_run = lm.fill(l_run, 1.0)
            for s in lm.range(1, S):
                lse = lm.load_tile(part_lse, coords=(0, s * rows + g * PART_ROWS), shape=(BM, 1), dtype=lm.f32,
                                   layout="accumulator", first_rows=PART_ROWS)
                m_new = lm.maximum(m_all, lse)
                alpha = lm.exp2(m_all - m_new)
                beta = lm.exp2(lse - m_new)
                o = o * alpha + lm.load_tile(part, coords=(0, s * rows + g * PART_ROWS), shape=(BM, D), dtype=lm.f32,
                                             layout="accumulator", first_rows=PART_ROWS) * beta
                l_run = l_run * alpha + beta
                m_all = m_new
            lm.atomic(arrived, coords=(g,), value=0, op="exch")
            out = lm.cast(o / l_run, lm.bf16)
            o_s.store(out)
            lse_s.store((m_all + lm.log2(l_run)) * LN2)
            lm.fence_proxy()
            lm.role_sync()
            o_s.tma_store(O, coords=(0, 0, g))
            lse_s.tma_store(LSE, coords=(0, g))
            lm.tma_store_wait()
