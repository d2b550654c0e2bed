# One iteration's uses split over range(0, 3) and range(3, ks) with a
# run-time ks = K // 64 (issue 34, reproduction r4): the two loops make one
# running count only if ks >= 3, which the analysis cannot prove, so the
# count is unproven (safety.unproven-span, as docs/language.md section 9
# says), not a stage-sequence error; unproven fails closed. Near-miss:
# pass_split_loop_runtime_span.cake (ks = lm.max(K // 64, 3)).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec -fsyntax-only -Wno-error=unproven --target=sm_90a %s 2>&1 | FileCheck %s
# CHECK-NOT: error:
# CHECK: warning: cannot prove that role 'load''s uses of barrier 'empty'
@cake.schedule()
def k(lm, A: LM.tma2d, T: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], pipeline=ring)
    ks = K // 64
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 3):
                lm.wait(empty, stage=t * ks + k)  # expected-error {{cannot prove that role 'load''s uses of barrier 'empty' in one iteration of the loop over 't' form one running count: the loop over 'k' (lm.range(3, ks)) may have its stop below its start; bound the stop (lm.max) or declare the count as a tensor dimension}} expected-error {{cannot prove that barrier 'empty' is signalled as often as it is awaited}}
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * ks + k, barrier=full)  # expected-error {{cannot prove that role 'load''s uses of barrier 'full' in one iteration}}
            for k in lm.range(3, ks):
                lm.wait(empty, stage=t * ks + k)
                a_s.tma_load(A, coords=(k * 64, 0), stage=t * ks + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, ks):
                lm.wait(full, stage=t * ks + k)  # expected-error {{cannot prove that barrier 'full' is signalled as often as it is awaited}}
                lm.mma(acc, a_s[t * ks + k], a_s[t * ks + k].T, init=(k == 0))
                lm.mma_commit()
                lm.mma_wait(pending=0)
                lm.arrive(empty, stage=t * ks + k)
