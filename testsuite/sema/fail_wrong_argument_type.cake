# Arguments of the wrong type name the parameter, the operation and both types.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, G: LM.tensor2d, n: LM.i32):
    pool = lm.smem(1024)
    r = lm.role(warps=[0])
    v = pool.view(offset=0, shape=(8, 8), dtype=r)  # expected-error {{argument 'dtype' of 'pool.view' must be a dtype such as lm.bf16, not the role 'r'}}
    b = lm.barrier(count=2, prod=r, cons=[r])  # expected-error {{argument 'prod' of 'lm.barrier' must be a list of roles and role families, not the role 'r'}}
    c = lm.barrier(count=2, prod=[pool], cons=[r])  # expected-error {{argument 'prod' of 'lm.barrier' must be a list of roles and role families, not a list holding the pool 'pool'}}
    w = pool.view(offset=0, shape=(8, 8), dtype=lm.f32)
    with r:
        w.tma_load(pool, coords=(0, 0), barrier=w)  # expected-error {{argument 'tensor' of 'view.tma_load' must be a TMA tensor parameter (LM.tmaNd), not the pool 'pool'}} expected-error {{argument 'barrier' of 'view.tma_load' must be a barrier, not the view 'w'}}
        w.tma_load(G, coords=(0, 0), barrier=b)  # expected-error {{argument 'tensor' of 'view.tma_load' must be a TMA tensor parameter (LM.tmaNd), not the tensor 'G' (LM.tensor2d)}}
        w.cp_async(A, coords=(0, 0), barrier=b)  # expected-error {{argument 'tensor' of 'view.cp_async' must be a global tensor parameter (LM.tensorNd), not the tensor 'A' (LM.tma2d)}}
        w.copy_to(A, coords=(0, 0))  # expected-error {{argument 'tensor' of 'view.copy_to' must be a global tensor parameter (LM.tensorNd), not the tensor 'A' (LM.tma2d)}}
