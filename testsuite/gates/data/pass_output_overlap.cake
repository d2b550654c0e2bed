# Near misses of fail_output_overlap.cake: tiles a whole tile apart; a
# coordinate that overlaps kept apart by another one; a branch on the block
# index (stores under an `if` are not judged); a persistent loop's tiles
# (not judged either); 8 of 64 rows stored 8 rows apart (first_rows=8); a
# grid dimension no coordinate names, stored by its last block only; one
# stored by every block of a flag's chain in turn (found by review,
# helper-50: the turns fix which block writes last).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(M // 64,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=x)

# -----
@cake.schedule(grid=(M // 64, 2))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64), src=x)

# -----
@cake.schedule(grid=(M // 32,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 32), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(0) % 2 == 0:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 32), src=x)

# -----
@cake.schedule(grid=(4,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, T: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        for t in lm.range(lm.block_id(0), T, 4):
            x = lm.load_tile(X, coords=(0, t * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.store_tile(Y, coords=(0, t * 64), src=x)

# -----
@cake.schedule(grid=(M // 8,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=x, first_rows=8)

# -----
# a grid dimension no coordinate names, where only its last block stores
# (a fix-up's store: under a branch, not judged)
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# every block of a tile's chain adds its part into Y in turn: between its
# wait and its exchange
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(Y, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
