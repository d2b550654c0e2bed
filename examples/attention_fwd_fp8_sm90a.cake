# The fp8 attention forward in FA3's form (FlashAttention-3's fp8 path):
# Q, K and V e4m3 as they are stored, (B*H, S, D) each, unit scales; bf16 O
# and f32 LSE. S = Q K^T and O += P V by fp8 wgmma, P cast to e4m3 and kept
# in registers. fp8 wgmma reads both operands K-major (no transpose
# immediates), and V's rows are keys, so V is MN-major for P V: the load
# warpgroup transposes each V tile in shared memory. It TMA-loads the tile
# into v_s (keys x D), reads it into registers (the accumulator layout, two
# bytes a load), stores it transposed into vt_s (D x keys, a byte a store),
# fences the generic proxy's writes for wgmma's async proxy and hands vt_s
# to the consumers. v_s is the load warpgroup's own two-slot ring, filled
# on vland. With AHEAD (the default) the copy of tile j + 1 is issued before
# tile j is transposed (a copy-ahead loop: tile 0 copied before it, the last
# iteration's copy left out), so its latency hides behind the transpose; a
# role sync after each tile's loads keeps the copy into a slot behind every
# warp's reads of it. With -DAHEAD=False each tile is copied and then
# transposed, its slot released by one arrival per warp on vread.
# The consumers are testsuite/codegen/Inputs/attention_fwd_fp8.cake's with
# P in registers (ping-pong of two warpgroups); that file takes V already
# transposed. harness/attention/fp8_check.py runs both.
from stdlib.hopper import WGMMA_M

CAUSAL = False
D = 128                       # head dimension
BM = 2 * WGMMA_M              # query rows per block: 64 per consumer warpgroup
BN = 128                      # keys per tile
STAGES = 2
AHEAD = True                  # copy V tile j + 1 while tile j is transposed
V_STAGES = 2                  # v_s's slots
SCALE_LOG2 = 0.12751743082459868  # log2(e) / sqrt(D): exp(x / sqrt(D)) = exp2(x * SCALE_LOG2)
LN2 = 0.6931471805599453
T8 = BN * D                   # bytes of one 128 x 128 fp8 tile

@cake.schedule(grid=(S // BM, BH))
def attention_fwd_fp8(lm, Q: LM.tma3d, K: LM.tma3d, V: LM.tma3d, O: LM.tma3d, LSE: LM.tma2d, S: LM.i32, BH: LM.i32):
    pool = lm.smem(9 * T8 + BM * 4)
    k_s = pool.view(offset=T8, shape=(BN, D), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    vt_s = pool.view(offset=3 * T8, shape=(D, BN), dtype=lm.e4m3, stage=STAGES, swizzle="128B")
    v_s = pool.view(offset=5 * T8, shape=(BN, D), dtype=lm.e4m3, stage=V_STAGES, swizzle="128B")
    # The load warpgroup holds a whole V tile while it transposes it: 128
    # bytes a thread, 64 registers.
    load = lm.role(warps=[0, 1, 2, 3], regs=104)
    vr = lm.regs(shape=(BN, D), dtype=lm.e4m3, role=load)
    # The two consumers: a role family (members wg[0], wg[1]), member i
    # taking query rows q0 + 64 i, each with its own Q tile, output and LSE
    # staging views and fragments.
    wg = lm.roles(warps=[[4, 5, 6, 7], [8, 9, 10, 11]], regs=200)
    q_s = pool.view(offset=0, shape=(BM // 2, D), dtype=lm.e4m3, swizzle="128B", role=wg)
    o_s = pool.view(offset=7 * T8, shape=(BM // 2, D), dtype=lm.bf16, swizzle="128B", role=wg)
    lse_s = pool.view(offset=9 * T8, shape=(1, BM // 2), dtype=lm.f32, role=wg)
    s = lm.regs(shape=(BM // 2, BN), dtype=lm.f32, role=wg)
    o = lm.regs(shape=(BM // 2, D), dtype=lm.f32, role=wg)
    m = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg)
    l = lm.regs(shape=(BM // 2, 1), dtype=lm.f32, role=wg)
    pb = lm.regs(shape=(BM // 2, BN), dtype=lm.e4m3, role=wg)
    kring = lm.pipeline(stages=STAGES)
    vring = lm.pipeline(stages=STAGES)       # vt_s: the load warpgroup to the consumers
    vsring = lm.pipeline(stages=V_STAGES)      # v_s: TMA to the load warpgroup
    qfull = lm.barrier(count=1, prod=[load], cons=[wg])
    kfull = lm.barrier(count=STAGES, prod=[load], cons=[wg], pipeline=kring)
    kempty = lm.barrier(count=STAGES, prod=[wg], cons=[load], init_count=2, pipeline=kring)
    vland = lm.barrier(count=V_STAGES, prod=[load], cons=[load], pipeline=vsring)
    if not AHEAD:
        vread = lm.barrier(count=V_STAGES, prod=[load], cons=[load], init_count=4, pipeline=vsring)
    # vfull is signalled by arrivals (one per warp, after its stores and
    # fence), not by a copy, so vempty's first lap is declared (credits).
    vfull = lm.barrier(count=STAGES, prod=[load], cons=[wg], init_count=4, pipeline=vring)
    vempty = lm.barrier(count=STAGES, prod=[wg], cons=[load], init_count=2, pipeline=vring, credits=STAGES)
    # Ping-pong: the two warpgroups take turns issuing their tile's wgmmas.
    turn0 = lm.barrier(count=1, prod=[wg[1]], cons=[wg[0]], credits=1)
    turn1 = lm.barrier(count=1, prod=[wg[0]], cons=[wg[1]], credits=0)
    turn = [turn0, turn1]
    q0 = lm.block_id(0) * BM
    if CAUSAL:
        n_kv = lm.block_id(0) + 1         # key tiles up to the diagonal (BN == BM)
    else:
        n_kv = S // BN
    with load:
        q_s[0].tma_load(Q, coords=(0, q0, lm.block_id(1)), stage=0, barrier=qfull)
        q_s[1].tma_load(Q, coords=(0, q0 + BM // 2, lm.block_id(1)), stage=0, barrier=qfull)
        if AHEAD:
            v_s.tma_load(V, coords=(0, 0, lm.block_id(1)), stage=0, barrier=vland)
        for j in lm.range(0, n_kv):
            lm.wait(kempty, stage=j)
            k_s.tma_load(K, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=kfull)
            if AHEAD:
                # the copy of tile j + 1, into the slot tile j - 1 left
                if j < n_kv - 1:
                    v_s.tma_load(V, coords=(0, (j + 1) * BN, lm.block_id(1)), stage=j + 1, barrier=vland)
            else:
                lm.wait(vread, stage=j)
                v_s.tma_load(V, coords=(0, j * BN, lm.block_id(1)), stage=j, barrier=vland)
            # V tile j (keys x D) to V^T (D x keys)
            lm.wait(vland, stage=j)
            vr = v_s.load(stage=j)
            if AHEAD:
                lm.role_sync()            # every warp has read slot j before the copy into it a lap on
            else:
                lm.arrive(vread, stage=j, per="warp")
            lm.wait(vempty, stage=j)
            vt_s.store(vr, stage=j, transpose=True)
            lm.fence_proxy()
            lm.arrive(vfull, stage=j, per="warp")
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
        for j in lm.range(1, n_kv):
            lm.wait(kfull, stage=j)
            lm.wait(turn[i], stage=j - 1)
            lm.mma(s, q_s, k_s[j].T, init=True)
            lm.mma_commit()
            lm.wait(vfull, stage=j - 1)
            lm.mma(o, pb, vt_s[j - 1].T)
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
        lm.wait(vfull, stage=n_kv - 1)
        lm.mma(o, pb, vt_s[n_kv - 1].T)
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
