# What the lowering refuses in atomics and accumulator-layout tiles of global
# memory, at the operation's line with what it lowers instead: an atomic on
# a tensor parameter or an f32 workspace, coordinates of another rank,
# op="cas" without compare= (and compare= without it); an accumulator-layout
# tile at an odd first column or of 8-bit elements; reset=True in the rows layout.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(M,))
def k(lm, T: LM.tensor2d[M, 8], M: LM.i32):
    w = lm.workspace(shape=(M, 4), dtype=lm.i32)
    f = lm.workspace(shape=(M,), dtype=lm.f32)
    r = lm.role(warps=[0])
    with r:
        a = lm.atomic(T, coords=(0, lm.block_id(0)))  # expected-error {{an atomic on 'T' has no sm_90a lowering: atomics update i32 workspace tensors (lm.workspace)}}
        b = lm.atomic(f, coords=(lm.block_id(0),))  # expected-error {{an atomic on 'f' has no sm_90a lowering: atomics update i32 workspace tensors (lm.workspace)}}
        c = lm.atomic(w, coords=(lm.block_id(0),))  # expected-error {{an atomic on 'w' has no sm_90a lowering: its coordinates name one element of the rank-2 tensor, 1 of them}}
        d = lm.atomic(w, coords=(0, lm.block_id(0)), op="cas")  # expected-error {{an atomic on 'w' has no sm_90a lowering: op="cas" takes compare=}}
        e = lm.atomic(w, coords=(0, lm.block_id(0)), op="exch", compare=1)  # expected-error {{an atomic on 'w' has no sm_90a lowering: compare= is for op="cas"}}

# -----
@cake.schedule(grid=(M // 64,))
def k(lm, M: LM.i32):
    p = lm.workspace(shape=(M, 72), dtype=lm.f32)
    h = lm.workspace(shape=(M, 64), dtype=lm.e4m3)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(p, coords=(1, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{a load of a tile of 'p' has no sm_90a lowering: the first column of a tile in the accumulator layout is provably even (each thread moves aligned pairs of elements), as a constant or a multiple of one}}
        y = lm.load_tile(h, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.e4m3, layout="accumulator")  # expected-error {{a load of a tile of 'h' has no sm_90a lowering: tiles of 16- and 32-bit elements in the accumulator layout move between registers and a 2-d tensor, a pair of elements per access}}

# -----
# reset=True zeroes what each thread read: only a tile in the accumulator
# layout, where each element is one thread's (not the rows layout).
@cake.schedule(grid=(M // 4,))
def k(lm, M: LM.i32):
    p = lm.workspace(shape=(M, 256), dtype=lm.f32)
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(p, coords=(0, lm.block_id(0) * 4), shape=(4, 256), dtype=lm.f32, reset=True)  # expected-error {{a load of a tile of 'p' has no sm_90a lowering: reset=True reads and zeroes tiles in the wgmma and mma.sync accumulator layout, where each element is one thread's (not vectors, the rows layout or tcgen05's lanes)}}
