# Blocks that add their partial tiles into one tile in turn (serial
# split-K's fix-up): block s of a tile waits until the tile's flag holds s
# (lm.wait_flag), adds the tile the blocks before it left, and either
# stores the sum and passes the turn on (an exchange of s + 1 that
# releases) or, as the last, resets the flag and writes the result. The
# flag rules (safety.cross-block-flag, safety.unproven-flag) accept it and
# these near misses: turns counted in steps of 2; the pass under
# 'b != last' and 'b < last', the read in the else of 'b == 0' and under
# 'b >= 1'; a chain of a constant number of blocks; blocks along grid
# dimension 0 taking turns at flags their dimension 1 names; and (found by
# review) chains of a constant 2 blocks (no middle one) and of 3 whose first
# block passes in a branch of its own, two phases of turns one after the
# other at two flags, the last block storing the tile after the others'
# pass in program order, and the first storing it before its wait; the
# whole protocol under a branch every block of a chain decides alike (`if
# S > 1:`, the one block of S = 1 storing Y directly; a branch on the
# block index the flag's coordinates name). Broken variants:
# fail_flag_wait.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=2 * lm.block_id(1))
        if lm.block_id(1) == 0:
            acc = lm.fill(acc, 2.0)
        else:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) != lm.num_blocks(1) - 1:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=2 * lm.block_id(1) + 2, op="exch", order="acq_rel")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, 4))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) >= 1:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) < lm.num_blocks(1) - 1:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=(S, (M + 63) // 64))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(1),), value=lm.block_id(0))
        if lm.block_id(0) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(1) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(0) == lm.num_blocks(0) - 1:
            lm.atomic(turn, coords=(lm.block_id(1),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(1) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(1) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(1),), value=lm.block_id(0) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, 2))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) == 0:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        else:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, 3))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) == 0:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        else:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
            else:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    ta = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    tb = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    pa = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    pb = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.wait_flag(ta, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(pa, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(ta, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.store_tile(pa, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(ta, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        lm.wait_flag(tb, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc2 = acc2 + lm.load_tile(pb, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(tb, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc + acc2)
        else:
            lm.store_tile(pb, coords=(0, lm.block_id(0) * 64), src=acc2)
            lm.atomic(tb, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) < lm.num_blocks(1) - 1:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) == 0:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) < lm.num_blocks(1) - 1:
            if lm.block_id(1) > 0:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# Under `if S > 1:` (the same in every block of a chain): every block of a
# chain waits and takes its turn, or, with S = 1, the one block stores Y.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if S > 1:
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
            if lm.block_id(1) > 0:
                acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
            else:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        else:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# Under a branch on lm.block_id(0), which the flag's coordinates name: the
# blocks of one chain decide it alike.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(0) * 64 < M:
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
            if lm.block_id(1) > 0:
                acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
            else:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
