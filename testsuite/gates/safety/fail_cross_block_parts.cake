# The parts of a last-block reduction (safety.cross-block-parts): every
# block stores its part whenever it counts itself in, at coordinates that
# name every grid dimension of more than one block, and the last block
# reads parts at coordinates that name the counter's block indices. Each
# part below was accepted before (an independent review's reproducers).
# Near misses: pass_cross_block.cake, pass_cross_block_parts_spread.cake.
# The parts of different blocks must not overlap: each coordinate steps its
# block indices as a mixed radix with room for the tile
# (analysis/TileSpread.cpp); where that is not proven, -Wunproven.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# the last block reads split s's part at (0, s * M), tile 0's rows, not its own tile's: it reads rows that blocks of another count may not have written yet
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * M), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part' at coordinates that do not name lm.block_id(0), which tells the blocks of different counts apart: it may read parts of another count's blocks; the block that sees the last count may read a part no block of its count wrote}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# parts stored at (0, block_id(1) * M): the blocks of every tile with one split index write the same rows at once
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * M), src=acc)  # expected-error {{role 'math' stores 'part' at coordinates that do not name lm.block_id(0): blocks that differ only there store the same tile}} expected-note {{'part' written here}} expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinate 1 is not the store's plus a constant}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinate 1 is not the store's plus a constant}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a part stored under 'if block_id(1) > 0': split 0's part is never written, so the last block reads what the previous launch left
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) > 0:
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' stores 'part' under a condition the atomic that counts the block in does not share}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# parts one split of M rows apart while a block stores 64 rows: at M % 64 != 0 a ragged tile's rows past M are the next split's first tile's (an independent review's reproducer, an XFAIL until now)
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * M + lm.block_id(0) * 64), src=acc)  # expected-error {{cannot prove that the blocks storing 'part' for the last block of their count store disjoint tiles: coordinate 1 steps by lm.block_id(1), lm.block_id(0), and no order of its steps is proven to leave room for the tile's 64 there and everything the smaller steps span (step by whole tiles: a multiple of the tile times the extent below it, as ((M + 63) // 64) * 64); two of them may write the same part}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * M + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# tiles 32 rows apart for a tile of 64: neighbouring tiles of one split overlap at any M
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 32), src=acc)  # expected-error {{cannot prove that the blocks storing 'part'}} expected-note {{'part' written here}} expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinate 1 is not the store's plus a constant}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinate 1 is not the store's plus a constant}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# splits one tile apart (64 rows) for a tile of 64 rows per block: split 1's tile 0 is split 0's tile 1
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * 64 + lm.block_id(0) * 64), src=acc)  # expected-error {{cannot prove that the blocks storing 'part'}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * 64 + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# split index times the tile count, one tile short: (M + 63) // 64 - 1 tiles per split
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 - 1) * 64 + lm.block_id(0) * 64), src=acc)  # expected-error {{cannot prove that the blocks storing 'part'}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 - 1) * 64 + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# splits side by side in columns, tiles of 64 rows stepped by 32: neighbouring tiles overlap
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, S * 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(lm.block_id(1) * 64, lm.block_id(0) * 32), src=acc)  # expected-error {{role 'math' stores 'part' at tiles that overlap: lm.block_id(0) steps coordinate 1 by 32, less than the 64 a block writes there, and no other coordinate keeps neighbouring blocks apart; the block that sees the last count may read a part no block of its count wrote}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 32), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(s * 64, lm.block_id(0) * 32), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# two stores a block makes, each 64 rows, at b0 * 64 and b0 * 64 + 64: the second is the next block's first (each store alone steps far enough; a block's stores are judged together: 128 rows stepped by 64) (an independent review)
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64 + 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64 + 64) + lm.block_id(0) * 64), src=acc)  # expected-error {{cannot prove that the blocks storing 'part' for the last block of their count store disjoint tiles: coordinate 1 steps by lm.block_id(1), lm.block_id(0), and no order of its steps is proven to leave room for the tile's 128 there and everything the smaller steps span (step by whole tiles: a multiple of the tile times the extent below it, as ((M + 63) // 64) * 64); two of them may write the same part}}
        lm.role_sync()
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64 + 64) + lm.block_id(0) * 64 + 64), src=acc2)  # expected-error {{cannot prove that the blocks storing 'part' for the last block of their count store disjoint tiles: coordinate 1 steps by lm.block_id(1), lm.block_id(0), and no order of its steps is proven to leave room for the tile's 128 there and everything the smaller steps span (step by whole tiles: a multiple of the tile times the extent below it, as ((M + 63) // 64) * 64); two of them may write the same part}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note 2 {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64 + 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
