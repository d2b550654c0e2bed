# A TMA copy of 4-bit e2m1 elements: sm_100a has the type, TMA's tensor
# maps have no element type for it; -fsyntax-only (which runs the lowering)
# reports it at the copy with its lower.* id.
# RUN: %cakec -verify -fsyntax-only --target=sm_100a %s
# RUN: %expect-exit 1 %cakec -fsyntax-only --target=sm_100a %s 2>&1 | FileCheck %s
# CHECK: [lower.tma-dtype]
@cake.schedule()
def k(lm, T: LM.tma2d, n: LM.i32):
    pool = lm.smem(32768)
    x = pool.view(offset=0, shape=(64, 128), dtype=lm.e2m1)
    load = lm.role(warps=[0])
    got = lm.barrier(count=1, prod=[load], cons=[load], init_count=1)
    with load:
        x.tma_load(T, coords=(0, 0), barrier=got)  # expected-error {{a TMA copy of e2m1 elements has no sm_100a lowering: TMA has no element type for it}}
        lm.wait(got, stage=0)
