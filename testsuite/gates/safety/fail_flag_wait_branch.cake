# Broken variants of the flag protocol under a branch (pass_flag_wait.cake's
# last two kernels: the turns under `if S > 1:`, which every block of a chain
# decides alike): a branch on the chain's own block index, which its blocks
# decide differently (safety.unproven-flag); under `if S > 1:` a pass of the
# turn outside the branch, the tile stored outside it (safety.unproven-flag,
# and the read it would order stays an error), the tile read after the
# branch, which the wait does not order (safety.cross-block-acquire), and no
# reset in the last block (safety.cross-block-flag). Found by review: a
# second flag's wait under a branch between the first wait and the read
# does not take the read over (the store after the pass is still found),
# and a tile of a tensor parameter stored outside the wait's branch is
# not ordered by the turns (data.unproven-output-overlap).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# A branch on lm.block_id(1): the blocks of one chain decide it differently.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) < 3:
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
# The turn passed on after `if S > 1:` closes: also where no block waited.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if S > 1:
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: it is also updated at 49:13, outside the branches around the wait}} expected-note {{the wait on flag 'turn' is here}}
            if lm.block_id(1) > 0:
                acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
# The first block stores the tile before `if S > 1:`, outside the turns.
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
        if S > 1:
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: 'part' is also written at 66:13, outside the branches around the wait}} expected-note {{the wait on flag 'turn' is here}}
            if lm.block_id(1) > 0:
                acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
            else:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
# The tile read after `if S > 1:` closes, where the wait does not order it.
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
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            else:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'part' written here}}
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# Under `if S > 1:`, the last block does not reset the flag.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if S > 1:
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{flag 'turn': the last block (lm.block_id(1) = lm.num_blocks(1) - 1) leaves it at lm.num_blocks(1) - 1 when the launch ends, and the next launch's first block waits for 0 for ever: reset it there, after the wait: lm.atomic(..., value=0, op="exch") in the branch of lm.block_id(1) == lm.num_blocks(1) - 1}}
            if lm.block_id(1) > 0:
                acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
            else:
                lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")

# -----
# A second flag waited for under `if M > 4096:` before the read of the first's tile.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    turn2 = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-note {{the wait on flag 'turn' is here}}
        if M > 4096:
            lm.wait_flag(turn2, coords=(lm.block_id(0),), value=lm.block_id(1))
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn2, coords=(lm.block_id(0),), value=0, op="exch")
            else:
                lm.atomic(turn2, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{flag 'turn': role 'math' writes 'part' after passing the turn on, while the block after it may be reading it: write it between the wait and the exchange that passes the turn on}}

# -----
# Y stored by every block of a chain, outside the branch of the wait.
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if M > 4096:
            lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-error {{cannot prove that every wait on flag 'turn' is released in turn: it is also updated at 161:17, outside the branches around the wait}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{blocks of the launch may write the same tiles of tensor 'Y': no coordinate of its stores names lm.block_id(1), so the blocks along grid dimension 1 write the same tile whenever there are more than one; which block writes last decides their elements}}
        if M > 4096:
            if lm.block_id(1) == lm.num_blocks(1) - 1:
                lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            else:
                lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
