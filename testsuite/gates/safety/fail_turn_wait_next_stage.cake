# Near-miss of pass_turn_wait_twice.cake: wg0's second wait names its next
# turn's stage (t + 2), a later phase of 'order' in the same iteration: it
# waits for wg1's release of a turn wg1 cannot take before wg0 releases this
# one (a hang). The roles no longer take turns alike.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(lm.sm_count(),))
def pp(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(196608)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    b_s = pool.view(offset=32768, shape=(256, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3], regs=40)
    wg0 = lm.role(warps=[4, 5, 6, 7], regs=232)
    wg1 = lm.role(warps=[8, 9, 10, 11], regs=232)
    acc0 = lm.regs(shape=(64, 256), dtype=lm.f32, role=wg0)
    acc1 = lm.regs(shape=(64, 256), dtype=lm.f32, role=wg1)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[wg0, wg1], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[wg0, wg1], cons=[load], init_count=1, pipeline=ring)
    order = lm.barrier(count=1, prod=[wg0, wg1], cons=[wg0, wg1], credits=1)  # expected-note 2 {{barrier 'order' declared here}}
    T = ((M + 63) // 64 * ((N + 255) // 256) - lm.block_id(0) + lm.num_blocks(0) - 1) // lm.num_blocks(0)
    KS = (K + 63) // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, KS):
                lm.wait(empty, stage=t * KS + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * KS + k, barrier=full)
    with wg0:
        for t in lm.range(0, T, 2):
            lm.wait(order, stage=t)  # expected-error {{role 'wg0' uses barrier 'order' at stage 't', which is not its running count of uses (0, 1, 2, ...): the loop over 't' steps by 2, so stages are skipped (roles taking turns on a barrier loop alike, starting one apart, one role per turn)}} expected-error {{cannot prove that barrier 'order' is signalled as often as it is awaited: role 'wg1' signals it in range(1, T, 2) and role 'wg0' waits on it in range(0, T, 2)}} expected-note {{role 'wg0' waits on 'order' here}}
            lm.wait(order, stage=t + 2)  # expected-error {{roles wait for each other before either arrives: role 'wg0' waits on 'order', which it signals only later}} expected-error {{role 'wg0' uses barrier 'order' at stage 't + 2', which is not its running count of uses (0, 1, 2, ...): another use in the same iteration names stage 't', so two uses land in different phases of one iteration (one iteration, one stage)}}
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc0, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k, per="warpgroup")
            lm.arrive(order, stage=t, per="warpgroup")
    with wg1:
        for t in lm.range(1, T, 2):
            lm.wait(order, stage=t)  # expected-error {{role 'wg1' uses barrier 'order' at stage 't', which is not its running count of uses (0, 1, 2, ...): the loop over 't' steps by 2, so stages are skipped (roles taking turns on a barrier loop alike, starting one apart, one role per turn)}} expected-error {{cannot prove that barrier 'order' is signalled as often as it is awaited: role 'wg0' signals it in range(0, T, 2) and role 'wg1' waits on it in range(1, T, 2)}}
            for k in lm.range(0, KS):
                lm.wait(full, stage=t * KS + k)
                lm.mma(acc1, a_s[t * KS + k], b_s[t * KS + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * KS + k, per="warpgroup")
            lm.arrive(order, stage=t, per="warpgroup")

