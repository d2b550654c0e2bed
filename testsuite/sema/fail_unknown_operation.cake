# An operation the vocabulary does not have, with a suggestion.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    pool = lm.smem(1024)
    q = lm.rol(warps=[0])  # expected-error {{the builder has no operation 'rol'; did you mean 'role'?}}
    r = lm.role(warps=[0])
    v = pool.veiw(offset=0, shape=(8,), dtype=lm.f32)  # expected-error {{pool 'pool' has no operation 'veiw'; did you mean 'view'?}}
    w = pool.view(offset=0, shape=(8,), dtype=lm.f32)
    with r:
        w.tma_lod(A, coords=(0, 0), barrier=A)  # expected-error {{view 'w' has no operation 'tma_lod'; did you mean 'tma_load'?}}
