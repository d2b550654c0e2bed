# Broken variants of pass_private_scratch.cake (a block reading back the
# workspace tile it stored): each reads a tile another block may write, or
# one its own store does not always write first, and is refused as a read of
# other blocks' data without an acquire.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# the next block's tile
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64 + 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note 2 {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64 + 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes}} expected-error {{role 'math' loads 'scratch' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# tiles 32 rows apart: the next block's store overlaps this block's tile
@cake.schedule(grid=((M + 31) // 32,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 31) // 32) * 32 + 32, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 32), src=acc)  # expected-note {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 32), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# stored only under a condition: the read may see what the last launch left
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, F: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if F > 0:
            lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'scratch' written here}}
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# stored after it is read (the previous launch's tile)
@cake.schedule(grid=((M + 63) // 64,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    scratch = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.load_tile(scratch, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'scratch', which other blocks of the launch write}}
        lm.store_tile(scratch, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-note {{'scratch' written here}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
