# data.output-overlap: blocks whose unconditional stores of a tensor
# parameter provably overlap (a block index steps a coordinate by less than
# the tile a block writes there, nothing else keeps neighbours apart), so
# which block writes last decides the shared elements. Near misses:
# pass_output_overlap.cake. Also a grid dimension no coordinate names.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# 64-row tiles 32 rows apart
@cake.schedule(grid=(M // 32,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 32), src=x)  # expected-error {{blocks of the launch write overlapping tiles of tensor 'Y': lm.block_id(0) steps coordinate 1 by 32, less than the 64 a block writes there, and no other coordinate keeps neighbouring blocks apart}}

# -----
# two stores of a block spanning 128 rows, blocks 64 rows apart
@cake.schedule(grid=(M // 64,))
def k(lm, X: LM.tensor2d, Y: LM.tensor2d, M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        x = lm.load_tile(X, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=x)  # expected-error {{blocks of the launch write overlapping tiles of tensor 'Y': lm.block_id(0) steps coordinate 1 by 64, less than the 128 a block writes there}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64 + 64), src=x)

# -----
# a TMA store of 128-column tiles 64 columns apart
@cake.schedule(grid=(N // 64,))
def k(lm, C: LM.tma2d, N: LM.i32):
    pool = lm.smem(16384)
    c_s = pool.view(offset=0, shape=(64, 128), dtype=lm.bf16)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        c_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(lm.block_id(0) * 64, 0))  # expected-error {{blocks of the launch write overlapping tiles of tensor 'C': lm.block_id(0) steps coordinate 0 by 64, less than the 128 a block writes there}}
        lm.tma_store_wait()

# -----
# found by review (helper-49): a grid dimension no store coordinate names,
# so its blocks store one tile: a constant extent of 2 is an overlap, a
# run-time one is where it exceeds one (data.unproven-output-overlap; the
# split-K fix-up stores C in one block of the tile's S)
@cake.schedule(grid=((M + 63) // 64, 2))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{blocks of the launch write overlapping tiles of tensor 'Y': no coordinate of its stores names lm.block_id(1), so the blocks along grid dimension 1 write the same tile}}

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc = acc + lm.load_tile(Y, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{blocks of the launch may write the same tiles of tensor 'Y': no coordinate of its stores names lm.block_id(1), so the blocks along grid dimension 1 write the same tile whenever there are more than one; which block writes last decides their elements}}

# -----
# the broken variants of pass_output_overlap.cake's chain in turn: the store
# after the block has passed the turn on (the next block may store at once)
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
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{blocks of the launch may write the same tiles of tensor 'Y': no coordinate of its stores names lm.block_id(1), so the blocks along grid dimension 1 write the same tile whenever there are more than one}}

# -----
# the store before the block's wait
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{blocks of the launch may write the same tiles of tensor 'Y': no coordinate of its stores names lm.block_id(1), so the blocks along grid dimension 1 write the same tile whenever there are more than one}}
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
