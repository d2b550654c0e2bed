# Broken variants of pass_persistent_attention_q.cake (a persistent
# attention loop over groups, FlashAttention-3's Q reloaded per group, the
# first key tile of each group peeled out of the key loop): Q released after
# the first key tile while the later ones still read it (a wait on the key
# ring between them does not bring Q back); a key or value tile read at
# another stage than the one its wait names; Q released early and waited for
# again at the stage the role already consumed (it returns at once).
# RUN: %cakec -verify -split-input-file -fsyntax-only -I %srcroot %s
# Q released (arrive on qempty) after the first key tile: the tiles after it still read Q, which the producer may be overwriting with the next group's (safety.read-after-release)
from stdlib.hopper import WGMMA_M

D = 128                       # head dimension
GROUP = 8                     # query heads per KV head
BM = WGMMA_M                  # the wgmma's rows: GROUP heads, the rest zeros
BN = 128                      # keys per tile
STAGES = 2
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453

@cake.schedule(grid=(lm.min(G, lm.sm_count()) * lm.min(1, L // BN),))  # persistent: at most one block per SM
def attention_decode_gqa(lm, Q: LM.tma3d[G, GROUP, D], K: LM.tma3d, V: LM.tma3d, O: LM.tma3d[G, GROUP, D],
                         LSE: LM.tma2d[G, GROUP], L: LM.i32, G: LM.i32):
    pool = lm.smem(2 * BM * D * 2 + 2 * STAGES * BN * D * 2 + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=BM * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=BM * D * 2 + STAGES * BN * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES,
                    swizzle="128B")
    o_s = pool.view(offset=BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=2 * BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(1, BM), dtype=lm.f32)
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
    qempty = lm.barrier(count=1, prod=[math], cons=[load], init_count=1, credits=1)
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=vring)
    n_kv = lm.max(1, L // BN)     # at least one key tile (the grid is empty below one)
    mine = (G - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)   # this block's groups
    with load:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            lm.wait(qempty, stage=w)
            q_s.tma_load(Q, coords=(0, 0, g), stage=w, barrier=qfull)
            for j in lm.range(0, n_kv):
                lm.wait(kempty, stage=w * n_kv + j)
                k_s.tma_load(K, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=kfull)
                lm.wait(vempty, stage=w * n_kv + j)
                v_s.tma_load(V, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=vfull)
    with math:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            o = lm.fill(o, 0.0)
            lm.wait(qfull, stage=w)
            lm.wait(kfull, stage=w * n_kv)
            lm.mma(s, q_s, k_s[w * n_kv].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(kempty, stage=w * n_kv, per="warpgroup")
            lm.arrive(qempty, stage=w, per="warpgroup")  # expected-note {{'q_s' released here}}
            m_run = lm.rowmax(s) * SCALE_LOG2
            p0 = lm.exp2(s * SCALE_LOG2 - m_run)
            l_run = lm.rowsum(p0)
            p16 = lm.cast(p0, lm.bf16)
            for j in lm.range(1, n_kv):
                lm.wait(kfull, stage=w * n_kv + j)
                lm.mma(s, q_s, k_s[w * n_kv + j].T, init=True)  # expected-error {{role 'math' reads 'q_s' after releasing it (arrive on 'qempty'): the producer may already be overwriting it}}
                lm.mma_commit()
                lm.wait(vfull, stage=w * n_kv + j - 1)
                lm.mma(o, p16, v_s[w * n_kv + j - 1])
                lm.mma_commit()
                lm.mma_wait(pending=1)
                lm.arrive(kempty, stage=w * n_kv + j, per="warpgroup")
                m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
                p = lm.exp2(s * SCALE_LOG2 - m_new)
                alpha = lm.exp2(m_run - m_new)
                l_run = l_run * alpha + lm.rowsum(p)
                m_run = m_new
                lm.mma_wait(pending=0)
                lm.arrive(vempty, stage=w * n_kv + j - 1, per="warpgroup")
                o = o * alpha
                p16 = lm.cast(p, lm.bf16)
            lm.wait(vfull, stage=w * n_kv + n_kv - 1)
            lm.mma(o, p16, v_s[w * n_kv + n_kv - 1])
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=w * n_kv + n_kv - 1, per="warpgroup")
            out = lm.cast(o / l_run, lm.bf16)
            lm.tma_store_wait()          # the previous group's O and LSE are read out
            lm.role_sync()
            o_s.store(out)
            lse_s.store((m_run + lm.log2(l_run)) * LN2)
            lm.fence_proxy()
            lm.role_sync()
            o_s.tma_store(O, coords=(0, 0, g))
            lse_s.tma_store(LSE, coords=(0, g))
        lm.tma_store_wait()

# -----
# the first key tile read at another stage than the one waited for
from stdlib.hopper import WGMMA_M

D = 128                       # head dimension
GROUP = 8                     # query heads per KV head
BM = WGMMA_M                  # the wgmma's rows: GROUP heads, the rest zeros
BN = 128                      # keys per tile
STAGES = 2
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453

@cake.schedule(grid=(lm.min(G, lm.sm_count()) * lm.min(1, L // BN),))  # persistent: at most one block per SM
def attention_decode_gqa(lm, Q: LM.tma3d[G, GROUP, D], K: LM.tma3d, V: LM.tma3d, O: LM.tma3d[G, GROUP, D],
                         LSE: LM.tma2d[G, GROUP], L: LM.i32, G: LM.i32):
    pool = lm.smem(2 * BM * D * 2 + 2 * STAGES * BN * D * 2 + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=BM * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=BM * D * 2 + STAGES * BN * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES,
                    swizzle="128B")
    o_s = pool.view(offset=BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=2 * BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(1, BM), dtype=lm.f32)
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
    qempty = lm.barrier(count=1, prod=[math], cons=[load], init_count=1, credits=1)
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=kring)  # expected-note {{barrier 'kfull' declared here}}
    kempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=vring)
    n_kv = lm.max(1, L // BN)     # at least one key tile (the grid is empty below one)
    mine = (G - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)   # this block's groups
    with load:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            lm.wait(qempty, stage=w)
            q_s.tma_load(Q, coords=(0, 0, g), stage=w, barrier=qfull)
            for j in lm.range(0, n_kv):
                lm.wait(kempty, stage=w * n_kv + j)
                k_s.tma_load(K, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=kfull)
                lm.wait(vempty, stage=w * n_kv + j)
                v_s.tma_load(V, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=vfull)
    with math:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            o = lm.fill(o, 0.0)
            lm.wait(qfull, stage=w)
            lm.wait(kfull, stage=w * n_kv)
            lm.mma(s, q_s, k_s[w * n_kv + 1].T, init=True)  # expected-error {{cannot prove which stage 'w * n_kv + 1' names; stage indices should be a loop variable plus a constant}}  # expected-error {{role 'math' reads stage w*n_kv+1 of 'k_s' but never waits on barrier 'kfull' for that stage}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(kempty, stage=w * n_kv, per="warpgroup")
            m_run = lm.rowmax(s) * SCALE_LOG2
            p0 = lm.exp2(s * SCALE_LOG2 - m_run)
            l_run = lm.rowsum(p0)
            p16 = lm.cast(p0, lm.bf16)
            for j in lm.range(1, n_kv):
                lm.wait(kfull, stage=w * n_kv + j)
                lm.mma(s, q_s, k_s[w * n_kv + j].T, init=True)
                lm.mma_commit()
                lm.wait(vfull, stage=w * n_kv + j - 1)
                lm.mma(o, p16, v_s[w * n_kv + j - 1])
                lm.mma_commit()
                lm.mma_wait(pending=1)
                lm.arrive(kempty, stage=w * n_kv + j, per="warpgroup")
                m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
                p = lm.exp2(s * SCALE_LOG2 - m_new)
                alpha = lm.exp2(m_run - m_new)
                l_run = l_run * alpha + lm.rowsum(p)
                m_run = m_new
                lm.mma_wait(pending=0)
                lm.arrive(vempty, stage=w * n_kv + j - 1, per="warpgroup")
                o = o * alpha
                p16 = lm.cast(p, lm.bf16)
            lm.arrive(qempty, stage=w, per="warpgroup")   # the group's last Q K^T is done
            lm.wait(vfull, stage=w * n_kv + n_kv - 1)
            lm.mma(o, p16, v_s[w * n_kv + n_kv - 1])
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=w * n_kv + n_kv - 1, per="warpgroup")
            out = lm.cast(o / l_run, lm.bf16)
            lm.tma_store_wait()          # the previous group's O and LSE are read out
            lm.role_sync()
            o_s.store(out)
            lse_s.store((m_run + lm.log2(l_run)) * LN2)
            lm.fence_proxy()
            lm.role_sync()
            o_s.tma_store(O, coords=(0, 0, g))
            lse_s.tma_store(LSE, coords=(0, g))
        lm.tma_store_wait()

# -----
# the last value tile read at another stage than the one waited for
from stdlib.hopper import WGMMA_M

D = 128                       # head dimension
GROUP = 8                     # query heads per KV head
BM = WGMMA_M                  # the wgmma's rows: GROUP heads, the rest zeros
BN = 128                      # keys per tile
STAGES = 2
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453

@cake.schedule(grid=(lm.min(G, lm.sm_count()) * lm.min(1, L // BN),))  # persistent: at most one block per SM
def attention_decode_gqa(lm, Q: LM.tma3d[G, GROUP, D], K: LM.tma3d, V: LM.tma3d, O: LM.tma3d[G, GROUP, D],
                         LSE: LM.tma2d[G, GROUP], L: LM.i32, G: LM.i32):
    pool = lm.smem(2 * BM * D * 2 + 2 * STAGES * BN * D * 2 + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=BM * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=BM * D * 2 + STAGES * BN * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES,
                    swizzle="128B")
    o_s = pool.view(offset=BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=2 * BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(1, BM), dtype=lm.f32)
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
    qempty = lm.barrier(count=1, prod=[math], cons=[load], init_count=1, credits=1)
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=vring)  # expected-note {{barrier 'vfull' declared here}}
    vempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=vring)
    n_kv = lm.max(1, L // BN)     # at least one key tile (the grid is empty below one)
    mine = (G - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)   # this block's groups
    with load:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            lm.wait(qempty, stage=w)
            q_s.tma_load(Q, coords=(0, 0, g), stage=w, barrier=qfull)
            for j in lm.range(0, n_kv):
                lm.wait(kempty, stage=w * n_kv + j)
                k_s.tma_load(K, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=kfull)
                lm.wait(vempty, stage=w * n_kv + j)
                v_s.tma_load(V, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=vfull)
    with math:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            o = lm.fill(o, 0.0)
            lm.wait(qfull, stage=w)
            lm.wait(kfull, stage=w * n_kv)
            lm.mma(s, q_s, k_s[w * n_kv].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(kempty, stage=w * n_kv, per="warpgroup")
            m_run = lm.rowmax(s) * SCALE_LOG2
            p0 = lm.exp2(s * SCALE_LOG2 - m_run)
            l_run = lm.rowsum(p0)
            p16 = lm.cast(p0, lm.bf16)
            for j in lm.range(1, n_kv):
                lm.wait(kfull, stage=w * n_kv + j)
                lm.mma(s, q_s, k_s[w * n_kv + j].T, init=True)
                lm.mma_commit()
                lm.wait(vfull, stage=w * n_kv + j - 1)
                lm.mma(o, p16, v_s[w * n_kv + j - 1])
                lm.mma_commit()
                lm.mma_wait(pending=1)
                lm.arrive(kempty, stage=w * n_kv + j, per="warpgroup")
                m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
                p = lm.exp2(s * SCALE_LOG2 - m_new)
                alpha = lm.exp2(m_run - m_new)
                l_run = l_run * alpha + lm.rowsum(p)
                m_run = m_new
                lm.mma_wait(pending=0)
                lm.arrive(vempty, stage=w * n_kv + j - 1, per="warpgroup")
                o = o * alpha
                p16 = lm.cast(p, lm.bf16)
            lm.arrive(qempty, stage=w, per="warpgroup")   # the group's last Q K^T is done
            lm.wait(vfull, stage=w * n_kv + n_kv - 1)
            lm.mma(o, p16, v_s[w * n_kv + n_kv - 2])  # expected-error {{cannot prove which stage 'w * n_kv + n_kv - 2' names; stage indices should be a loop variable plus a constant}}  # expected-error {{role 'math' reads stage w*n_kv+n_kv-2 of 'v_s' but never waits on barrier 'vfull' for that stage}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=w * n_kv + n_kv - 1, per="warpgroup")
            out = lm.cast(o / l_run, lm.bf16)
            lm.tma_store_wait()          # the previous group's O and LSE are read out
            lm.role_sync()
            o_s.store(out)
            lse_s.store((m_run + lm.log2(l_run)) * LN2)
            lm.fence_proxy()
            lm.role_sync()
            o_s.tma_store(O, coords=(0, 0, g))
            lse_s.tma_store(LSE, coords=(0, g))
        lm.tma_store_wait()

# -----
# Q released early and waited for again at the stage already consumed: the wait returns at once and brings nothing back
from stdlib.hopper import WGMMA_M

D = 128                       # head dimension
GROUP = 8                     # query heads per KV head
BM = WGMMA_M                  # the wgmma's rows: GROUP heads, the rest zeros
BN = 128                      # keys per tile
STAGES = 2
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453

@cake.schedule(grid=(lm.min(G, lm.sm_count()) * lm.min(1, L // BN),))  # persistent: at most one block per SM
def attention_decode_gqa(lm, Q: LM.tma3d[G, GROUP, D], K: LM.tma3d, V: LM.tma3d, O: LM.tma3d[G, GROUP, D],
                         LSE: LM.tma2d[G, GROUP], L: LM.i32, G: LM.i32):
    pool = lm.smem(2 * BM * D * 2 + 2 * STAGES * BN * D * 2 + BM * 4)
    q_s = pool.view(offset=0, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    k_s = pool.view(offset=BM * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=BM * D * 2 + STAGES * BN * D * 2, shape=(BN, D), dtype=lm.bf16, stage=STAGES,
                    swizzle="128B")
    o_s = pool.view(offset=BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(BM, D), dtype=lm.bf16, swizzle="128B")
    lse_s = pool.view(offset=2 * BM * D * 2 + 2 * STAGES * BN * D * 2, shape=(1, BM), dtype=lm.f32)
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
    qempty = lm.barrier(count=1, prod=[math], cons=[load], init_count=1, credits=1)
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=kring)
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[math], pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[math], cons=[load], init_count=1, pipeline=vring)
    n_kv = lm.max(1, L // BN)     # at least one key tile (the grid is empty below one)
    mine = (G - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)   # this block's groups
    with load:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            lm.wait(qempty, stage=w)
            q_s.tma_load(Q, coords=(0, 0, g), stage=w, barrier=qfull)
            for j in lm.range(0, n_kv):
                lm.wait(kempty, stage=w * n_kv + j)
                k_s.tma_load(K, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=kfull)
                lm.wait(vempty, stage=w * n_kv + j)
                v_s.tma_load(V, coords=(0, j * BN, g), stage=w * n_kv + j, barrier=vfull)
    with math:
        for w in lm.range(0, mine):
            g = lm.block_id(0) + w * lm.num_blocks(0)
            o = lm.fill(o, 0.0)
            lm.wait(qfull, stage=w)
            lm.wait(kfull, stage=w * n_kv)
            lm.mma(s, q_s, k_s[w * n_kv].T, init=True)
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(kempty, stage=w * n_kv, per="warpgroup")
            lm.arrive(qempty, stage=w, per="warpgroup")  # expected-note {{'q_s' released here}}
            lm.wait(qfull, stage=w)
            m_run = lm.rowmax(s) * SCALE_LOG2
            p0 = lm.exp2(s * SCALE_LOG2 - m_run)
            l_run = lm.rowsum(p0)
            p16 = lm.cast(p0, lm.bf16)
            for j in lm.range(1, n_kv):
                lm.wait(kfull, stage=w * n_kv + j)
                lm.mma(s, q_s, k_s[w * n_kv + j].T, init=True)  # expected-error {{role 'math' reads 'q_s' after releasing it (arrive on 'qempty'): the producer may already be overwriting it}}
                lm.mma_commit()
                lm.wait(vfull, stage=w * n_kv + j - 1)
                lm.mma(o, p16, v_s[w * n_kv + j - 1])
                lm.mma_commit()
                lm.mma_wait(pending=1)
                lm.arrive(kempty, stage=w * n_kv + j, per="warpgroup")
                m_new = lm.maximum(m_run, lm.rowmax(s) * SCALE_LOG2)
                p = lm.exp2(s * SCALE_LOG2 - m_new)
                alpha = lm.exp2(m_run - m_new)
                l_run = l_run * alpha + lm.rowsum(p)
                m_run = m_new
                lm.mma_wait(pending=0)
                lm.arrive(vempty, stage=w * n_kv + j - 1, per="warpgroup")
                o = o * alpha
                p16 = lm.cast(p, lm.bf16)
            lm.wait(vfull, stage=w * n_kv + n_kv - 1)
            lm.mma(o, p16, v_s[w * n_kv + n_kv - 1])
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(vempty, stage=w * n_kv + n_kv - 1, per="warpgroup")
            out = lm.cast(o / l_run, lm.bf16)
            lm.tma_store_wait()          # the previous group's O and LSE are read out
            lm.role_sync()
            o_s.store(out)
            lse_s.store((m_run + lm.log2(l_run)) * LN2)
            lm.fence_proxy()
            lm.role_sync()
            o_s.tma_store(O, coords=(0, 0, g))
            lse_s.tma_store(LSE, coords=(0, g))
        lm.tma_store_wait()
