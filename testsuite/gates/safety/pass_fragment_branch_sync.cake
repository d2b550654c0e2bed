# A role sync inside a branch orders the fragment accesses around it in that
# branch: the sync runs whenever they do (it sits in their statement list or
# one around it). A last block's fix-up stores its part, syncs and reads
# parts back in the same branch, inside a loop over the parts, and the loop
# around it all takes the next iteration's store after the sync that follows
# the reads. Before, only a sync outside every branch counted
# (safety.fragment-cross-thread; the stream-K experiment of
# bench/results/issue36_2026-12-05g hit it). Failing near misses, a sync in
# the other branch or in a branch of its own: fail_fragment_branch_sync.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a %s -o %t.cu
# RUN: FileCheck %s < %t.cu
# CHECK: __global__
# expected-no-diagnostics
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], n: LM.i32):
    pool = lm.smem(16384)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        for i in lm.range(0, 4):
            if i == n:
                t_s.store(v, transpose=True)  # each element where a plain load gives it to another thread
                lm.role_sync()
                w = t_s.load()
                for j in lm.range(0, 2):
                    w = w + t_s.load()
                lm.store_tile(Y, coords=(0, 0), src=w)
                lm.role_sync()
