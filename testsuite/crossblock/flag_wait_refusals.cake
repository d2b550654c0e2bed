# What the lowering refuses in flag waits (lm.wait_flag), at the wait's line:
# a flag in a tensor parameter or an f32 workspace, coordinates of another
# rank, and a kernel of clusters (a cooperative launch makes the blocks that
# wait resident at once; it is not lowered with clusters); -Wno-error=unproven
# lets the lowering see the first schedule. The gates see the
# second schedule's turns as well formed.
# RUN: %cakec -verify -split-input-file -fsyntax-only -Wno-error=unproven --target=sm_90a %s
@cake.schedule(grid=(M,))
def k(lm, T: LM.tensor2d[M, 8], M: LM.i32):
    f = lm.workspace(shape=(M,), dtype=lm.f32)
    w = lm.workspace(shape=(M, 4), dtype=lm.i32)
    r = lm.role(warps=[0])
    with r:
        lm.wait_flag(T, coords=(0, lm.block_id(0)), value=0)  # expected-error {{a wait on flag 'T' has no sm_90a lowering: flags are i32 elements of workspace tensors (lm.workspace)}}
        lm.wait_flag(f, coords=(lm.block_id(0),), value=0)  # expected-error {{a wait on flag 'f' has no sm_90a lowering: flags are i32 elements of workspace tensors (lm.workspace)}} expected-warning {{cannot prove that every wait on flag 'f' is released in turn: its coordinates name every grid dimension, so no other block shares its element}}
        lm.wait_flag(w, coords=(lm.block_id(0),), value=0)  # expected-error {{a wait on flag 'w' has no sm_90a lowering: its coordinates name one element of the rank-2 tensor, 1 of them}} expected-warning {{cannot prove that every wait on flag 'w' is released in turn: its coordinates name every grid dimension, so no other block shares its element}}

# -----
@cake.schedule(grid=(2 * M, S), cluster=(2, 1, 1))
def k(lm, M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=(2 * M,), dtype=lm.i32)
    r = lm.role(warps=[0])
    with r:
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{a wait on flag 'turn' has no sm_90a lowering: a kernel that waits on flags is launched with all its blocks resident (a cooperative launch), which is not lowered for clusters of blocks}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
