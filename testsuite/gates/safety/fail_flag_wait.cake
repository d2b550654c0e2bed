# Broken variants of the turn-taking of pass_flag_wait.cake (blocks that
# add their partial tiles into one tile in turn through a flag): no block
# passes the turn on, or it passes the value it waited for, the first
# block waits for 1, a relaxed pass, no reset in the last block, a pass
# in every block with no reset, a pass before the wait, the first block
# reading the tile, a read after the pass, a store before the wait and
# after the pass, a pass in the middle blocks only, tiles of different
# flags overlapping, a pass of cluster scope (safety.cross-block-flag);
# and what the rules do not prove (safety.unproven-flag): a wait in a
# loop, an add on the flag, a value that is not a constant times the
# block index, a flag shared across two grid dimensions, a tile stored over
# the flag; and (found by review) a load with reset=True over the flag, turn
# values that may leave the i32 range, and turns that start at the last
# block. A read after a wait whose turns are unproven stays an error
# (safety.cross-block-acquire), so -Wno-error=unproven does not let it by.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{flag 'turn': the first block (lm.block_id(1) = 0) does not pass the turn on: the block after it waits for ever (after the wait, in every block but the last: lm.atomic(..., value=lm.block_id(1) + 1, op="exch", order="release"))}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1), op="exch", order="release")  # expected-error {{flag 'turn': the exchange writes 0 more than the block waited for, but the block after it waits for 1 more: that block waits for ever}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1)  # expected-error {{flag 'turn': the block with lm.block_id(1) = 0 waits for it to hold 1, but it holds 0 when the launch starts and only blocks after that one write it: that block waits for ever}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 2, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="relaxed")  # expected-error {{flag 'turn': the exchange that passes the turn on has order "relaxed": the block after it may not see what this one wrote (order="release")}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{flag 'turn': the last block (lm.block_id(1) = lm.num_blocks(1) - 1) leaves it at lm.num_blocks(1) - 1 when the launch ends, and the next launch's first block waits for 0 for ever: reset it there, after the wait: lm.atomic(..., value=0, op="exch") in the branch of lm.block_id(1) == lm.num_blocks(1) - 1}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):  # expected-warning {{tensor 'Y' is declared but never used}}
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{flag 'turn': the last block (lm.block_id(1) = lm.num_blocks(1) - 1) leaves it at lm.num_blocks(1) (its own pass) when the launch ends, and the next launch's first block waits for 0 for ever: reset it there, after the wait: lm.atomic(..., value=0, op="exch") in the branch of lm.block_id(1) == lm.num_blocks(1) - 1}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
        lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):  # expected-warning {{tensor 'Y' is declared but never used}}
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")  # expected-error {{flag 'turn': the turn is passed on before the block's own wait, so the blocks do not take turns}}
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{flag 'turn': the first block (lm.block_id(1) = 0) reads 'part', which no block of this launch has written before it (it holds the previous launch's data): read it where lm.block_id(1) > 0}}
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
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{flag 'turn': role 'math' reads 'part' after passing the turn on, while the block after it may be writing it: read it before the exchange}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{flag 'turn': role 'math' writes 'part' before its wait for its turn, while the block before it may be reading it: write it between the wait and the exchange that passes the turn on}}
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
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
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{flag 'turn': role 'math' writes 'part' after passing the turn on, while the block after it may be reading it: write it between the wait and the exchange that passes the turn on}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{flag 'turn': the first block (lm.block_id(1) = 0) does not pass the turn on: the block after it waits for ever (after the wait, in every block but the last: lm.atomic(..., value=lm.block_id(1) + 1, op="exch", order="release"))}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        if lm.block_id(1) > 0:
          if lm.block_id(1) < lm.num_blocks(1) - 1:
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
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 32), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 32), src=acc)  # expected-error {{flag 'turn': blocks that take turns at different elements of it store overlapping tiles of 'part': lm.block_id(0) steps coordinate 1 by 32, less than the 64 a block writes there, and no other coordinate keeps neighbouring blocks apart}}
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
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release", scope="cluster")  # expected-error {{flag 'turn': the exchange has scope "cluster", which does not order other blocks' reads (scope="gpu")}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        for i in lm.range(0, 2):
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: it runs in a loop, or under a condition the blocks that share its element may decide differently, not once per block}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'part' written here}}
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
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: it is also updated by an atomic add at 311:9 that is not an exchange of the same element by role 'math'}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        lm.atomic(turn, coords=(lm.block_id(0),), value=1, op="add")  # expected-error {{counter 'turn' is left at the count of its blocks when the launch ends, and the next launch counts on from there: reset it in the branch that knows the count is complete, directly (not under a further condition or in a loop): lm.atomic(..., value=0, op="exch")}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1) * lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: the value it waits for is not a constant times lm.block_id(1), the index of the blocks that share its element}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
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
        lm.wait_flag(turn, coords=(0,), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: the blocks sharing an element span two grid dimensions of run-time extent}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    z = lm.regs(shape=(64, 64), dtype=lm.i32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(0, lm.block_id(0) * 64), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: it is also written by a store of a tile at 371:13}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(0, lm.block_id(0) * 64), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(0, lm.block_id(0) * 64), value=lm.block_id(1) + 1, op="exch", order="release")
            z = lm.fill(z, 0)
            lm.store_tile(turn, coords=(0, lm.block_id(0) * 64), src=z)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64 + 64, 8), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    t = lm.regs(shape=(64, 8), dtype=lm.i32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(0, lm.block_id(0)), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: it is also written by a load with reset=True at 392:13}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(0, lm.block_id(0)), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(0, lm.block_id(0)), value=lm.block_id(1) + 1, op="exch", order="release")
        t = lm.load_tile(turn, coords=(0, lm.block_id(0)), shape=(64, 8), dtype=lm.i32, layout="accumulator", reset=True)
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=lm.cast(t, lm.f32))


# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=1073741824 * lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: the values 1073741824 * lm.block_id(1) it waits for may leave the range of an i32}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=1073741824 * lm.block_id(1) + 1073741824, op="exch", order="release")


# -----
@cake.schedule(grid=((M + 63) // 64, 4))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=3 - lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: the first turn is not the block with lm.block_id(1) = 0}} expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) < 3:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == 0:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=4 - lm.block_id(1), op="exch", order="release")


