# What sema rejects in workspaces and atomics: an extent the launcher cannot
# compute before the launch (a block index), a shape of six extents or of a
# zero extent, a
# workspace declared and dropped, and misspelled op=, order= and scope=.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    w = lm.workspace(shape=(M, lm.block_id(0)), dtype=lm.i32)  # expected-error {{a workspace extent is an integer of the scalar parameters and constants, which the launcher computes before the launch; 'lm.block_id(0)' is not}}

# -----
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    w = lm.workspace(shape=(M, 1, 1, 1, 1, 1), dtype=lm.i32)  # expected-error {{argument 'shape' of 'lm.workspace' must be a tuple of 1 to 5 extents, got 6 extent(s)}}

# -----
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    w = lm.workspace(shape=(0, M), dtype=lm.i32)  # expected-error {{a workspace extent must be positive, got 0}}

# -----
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    lm.workspace(shape=(M,), dtype=lm.i32)  # expected-error {{'lm.workspace' declares a resource; bind it to a name}}

# -----
@cake.schedule(grid=(M,))
def k(lm, M: LM.i32):
    w = lm.workspace(shape=(M,), dtype=lm.i32)
    r = lm.role(warps=[0])
    with r:
        n = lm.atomic(w, coords=(lm.block_id(0),), op="ad")  # expected-error {{argument 'op' of 'lm.atomic' must be one of "add", "max", "min", "exch", "cas", got "ad"; did you mean 'add'?}}
        m = lm.atomic(w, coords=(lm.block_id(0),), order="acqrel")  # expected-error {{argument 'order' of 'lm.atomic' must be one of "relaxed", "acquire", "release", "acq_rel", got "acqrel"; did you mean 'acq_rel'?}}
        p = lm.atomic(w, coords=(lm.block_id(0),), scope="device")  # expected-error {{argument 'scope' of 'lm.atomic' must be one of "gpu", "cluster", got "device"}}
