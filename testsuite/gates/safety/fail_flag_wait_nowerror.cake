# Under -Wno-error=unproven a wait on a flag whose turns the gate cannot
# prove is a warning (safety.unproven-flag), but what the role reads after
# it of what other blocks write stays an error (safety.cross-block-acquire):
# nothing proves that it was written before the read (found by review: the
# read was left to the flag rules, which gave up). Of two reads after one
# wait, only the one the rules do not prove is reported.
# RUN: %cakec -verify -split-input-file -fsyntax-only -Wno-error=unproven --target=sm_90a %s
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1) * lm.block_id(1))  # expected-warning {{cannot prove that every wait on flag 'turn' is released in turn: the value it waits for is not a constant times lm.block_id(1), the index of the blocks that share its element}} expected-note {{the wait on flag 'turn' is here}}
        lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
        else:
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
        acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    turn = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=((M + 63) // 64 * 64, 64), dtype=lm.f32)
    odd = lm.workspace(shape=((M + 63) // 64 * 64 + 64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.wait_flag(turn, coords=(lm.block_id(0),), value=lm.block_id(1))  # expected-warning {{cannot prove that every wait on flag 'turn' is released in turn: the write of 'odd' at 45:13 is not the tile read at 39:25 (the same coordinates, which do not name lm.block_id(1))}}  # expected-note {{the wait on flag 'turn' is here}}
        if lm.block_id(1) > 0:
            acc = acc + lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            acc = acc + lm.load_tile(odd, coords=(0, lm.block_id(0) * 64 + 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'odd', which other blocks of the launch write, after a wait on flag 'turn' whose turns are not proven (safety.unproven-flag); it may read the data before they have written it}}
        if lm.block_id(1) == lm.num_blocks(1) - 1:
            lm.atomic(turn, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.store_tile(odd, coords=(0, lm.block_id(0) * 64), src=acc)
            lm.atomic(turn, coords=(lm.block_id(0),), value=lm.block_id(1) + 1, op="exch", order="release")
