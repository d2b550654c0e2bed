# Cluster-scope atomics need a target with clusters.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    w = lm.workspace(shape=(M,), dtype=lm.i32)
    r = lm.role(warps=[0])
    with r:
        a = lm.atomic(w, coords=(lm.block_id(0),), scope="cluster")  # expected-error {{an atomic on 'w' has no sm_80 lowering: the cluster scope needs a target with clusters (sm_90a and later)}}
