# Broken variants of pass_cross_block_first_rows.cake and pass_cross_block.cake:
# the last block of a count reads a tile that no block of its count is proven
# to store (safety.cross-block-parts where the coordinates differ from every
# part by constants that leave it; safety.unproven-part-read where they are
# not proven to meet one). Near misses: pass_cross_block_part_read.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# the first part read 4 rows down: half of it the next head's part
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8 + 4), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{role 'math' reads 'part' outside every part a block of its count stores (its coordinate 1 is the store's plus 4, outside the store's tile (0 to 0))}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# 16 rows read of 8-row parts
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=16)  # expected-error {{role 'math' reads 'part' outside every part a block of its count stores (its tile is 8 wider than the store's along coordinate 1)}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# the loop over the parts runs one past the grid: the last part read is no block's
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(1, lm.num_blocks(1) + 1):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the loop over its parts is not proven to stay below the number of the count's blocks}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# the parts indexed by the head, not the split: another count's parts
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (lm.block_id(0) * lm.num_blocks(1) + s) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinate 1 is not the store's plus a constant}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# the loop reads parts 2 s - z + S: the last block's own split index z is not the store's (found by review)
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(3 * S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, ((lm.block_id(1) + S) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, ((2 * s - lm.block_id(1) + S) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinates name an index that tells the count's blocks apart (the last block's own)}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# the store's column reads the split index through % 2: not a part index the proof reads (found by review)
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=((lm.block_id(1) % 2) * 64, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=((lm.block_id(1) % 2) * 64, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the store's coordinates depend on something other than block indices, the launch's scalars and constants (an index through an operation, a value read at run time, a loop variable)}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# a part stored as two 64-column halves and read as one tile: the read is compared with each store alone, so not proven (a limit, not an error)
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 64, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    lo = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    hi = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    with math:
        lo = lm.fill(lo, 1.0)
        hi = lm.fill(hi, 2.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 64), src=lo)
        lm.store_tile(part, coords=(64, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 64), src=hi)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 64), shape=(64, 128), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the role stores the tensor 2 times and the read is compared with each store alone, not with what they store together}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# part s + 2 over range(0, S - 1): the last read is part S, no block's
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, (lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(0, lm.num_blocks(1) - 1):
                acc = acc + lm.load_tile(part, coords=(0, ((s + 2) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the loop over its parts is not proven to stay below the number of the count's blocks}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# three 64-column chunks read of a 128-column part
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 64, 128), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    h = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 64), src=acc)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            for c in lm.range(0, 3):
                h = lm.fill(h, 0.0)
                for s in lm.range(0, lm.num_blocks(1)):
                    h = h + lm.load_tile(part, coords=(c * 64, (s * lm.num_blocks(0) + lm.block_id(0)) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part' outside every part a block of its count stores (its coordinate 0 is the store's plus 0 to 128, outside the store's tile (0 to 64))}}
                lm.store_tile(Y, coords=(c * 64, lm.block_id(0) * 64), src=h)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")

# -----
# the first part's index read from device memory in the last block (0 to 15: a count may
# have fewer blocks)
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, P: LM.tensor1d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            first = lm.load_scalar(P, coords=(lm.block_id(0),), lo=0, hi=15)
            acc = lm.load_tile(part, coords=(0, (first * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinates depend on something other than its loops, the counter's block indices, the launch's scalars and constants}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# parts S - s in reverse: the first read is part S, no block's
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, ((lm.num_blocks(1) - s) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the loop over its parts in reverse is not proven to stay within the count's blocks}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# parts S - 2 - s in reverse: the last read is part -1
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.fill(acc, 0.0)
            for s in lm.range(0, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, ((lm.num_blocks(1) - 2 - s) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the loop over its parts in reverse is not proven to stay within the count's blocks}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)

# -----
# the odd part's loop starts at (S - 1) // 2 * 2 - 1: at S = 1 or 2 it reads part -1
@cake.schedule(grid=(G, S))
def k(lm, Y: LM.tensor2d, G: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(G,), dtype=lm.i32)
    part = lm.workspace(shape=(S * G * 8, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, (lm.block_id(1) * lm.num_blocks(0) + lm.block_id(0)) * 8), src=acc, first_rows=8)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
            for s in lm.range(1, lm.num_blocks(1) - 1, 2):
                acc = acc + (lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)
                             + lm.load_tile(part, coords=(0, ((s + 1) * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8))
            for s in lm.range((lm.num_blocks(1) - 1) // 2 * 2 - 1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, (s * lm.num_blocks(0) + lm.block_id(0)) * 8), shape=(64, 64), dtype=lm.f32, layout="accumulator", first_rows=8)  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: the loop over its parts does not start at a value proven to be at least 0 (a constant, or one whose lower bound is) and step up}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 8), src=acc, first_rows=8)
