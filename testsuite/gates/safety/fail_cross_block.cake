# Broken variants of the cross-block protocol of pass_cross_block.cake:
# parts read through a relaxed atomic's branch or outside the branch
# (safety.cross-block-acquire), stored after the atomic or before one that
# only acquires (safety.cross-block-release), a branch on a count the last
# block does not see (safety.cross-block-count), a counter never reset or
# reset at other coordinates (safety.counter-not-reset), and coordinates
# that are not block indices (safety.unproven-cross-block); a fix-up under
# 'n >= last', which every late block takes; two adds to one counter; a
# cluster-scope counter; a part another role writes, which the counting
# role's meeting does not order; a reset under a further condition or in a
# loop that may not run, and an exchange outside the branch (an independent
# review's reproducers); counters no branch takes the last block of: a
# ticket compared with '<', a work queue without its reset, one whose
# reset counter is counted before the tickets are taken, and one reset by a
# counter of fewer blocks than take its tickets.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-note 2 {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="relaxed")  # expected-note 2 {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, in a branch on an atomic of order "relaxed", which does not acquire their writes (order="acq_rel" does); it may read the data before they have written it}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, in a branch on an atomic of order "relaxed", which does not acquire their writes (order="acq_rel" does); it may read the data before they have written it}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-note {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        if n == lm.num_blocks(1) - 1:
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' writes 'part', which other blocks of the launch read, after the atomic that tells them it is complete; they may read it before it is written}} expected-note 2 {{'part' written here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' loads 'part' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' loads 'part' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' writes 'part', which other blocks of the launch read, and the atomic after it has order "acquire", which does not release the write (order="acq_rel" does); they may read it before it is written}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acquire")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1):  # expected-error {{branch 'n == lm.num_blocks(1)' does not take the last block to update 'arrived': lm.num_blocks(1) block(s) each add 1 to that element and the last of them sees lm.num_blocks(1) - 1; the branch runs before every block has added its count, or never}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, 4))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(4 * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == 2:  # expected-error {{branch 'n == 2' does not take the last block to update 'arrived': 4 block(s) each add 1 to that element and the last of them sees 3; the branch runs before every block has added its count, or never}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-error {{counter 'arrived' is left at the count of its blocks when the launch ends, and the next launch counts on from there: reset it in the branch that knows the count is complete, directly (not under a further condition or in a loop): lm.atomic(..., value=0, op="exch")}}
        if n == lm.num_blocks(1) - 1:  # expected-note {{the count of 'arrived' is complete in this branch}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-error {{counter 'arrived' is left at the count of its blocks when the launch ends, and the next launch counts on from there: reset it in the branch that knows the count is complete, directly (not under a further condition or in a loop): lm.atomic(..., value=0, op="exch")}}
        if n == lm.num_blocks(1) - 1:  # expected-note {{the count of 'arrived' is complete in this branch}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0) + 1,), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-note 2 {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0) // 2,), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: its coordinates are not distinct block indices (lm.block_id), so which blocks share an element is not known}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinates name an index that tells the count's blocks apart (the last block's own)}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{cannot prove that the tile role 'math' reads of 'part' in the last block of its count lies in a part that a block of that count stores: its coordinates name an index that tells the count's blocks apart (the last block's own)}}
            lm.atomic(arrived, coords=(lm.block_id(0) // 2,), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-note 2 {{'part' written here}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-error {{counter 'arrived' is left at the count of its blocks when the launch ends}}
        if n >= lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, in a branch that does not take only the last block to count in (the then-branch of 'old == the last count' does); it may read the data before they have written it}}
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, in a branch that does not take only the last block to count in (the then-branch of 'old == the last count' does); it may read the data before they have written it}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        n2 = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: 2 atomics of the kernel update it, each adding its own count}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel", scope="cluster")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: its scope "cluster" orders only the blocks of one cluster}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    side = lm.role(warps=[4, 5, 6, 7])
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=side)
    with side:
        acc2 = lm.fill(acc2, 2.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc2)  # expected-error {{role 'side' writes 'part', which other blocks of the launch read, but the atomic that tells them it is complete is role 'math''s, whose meeting does not order this role's writes; they may read it before it is written}}
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the reset under a further condition (block 0's tile only): the other tiles'
# counters stay at the count
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-error {{counter 'arrived' is left at the count of its blocks when the launch ends, and the next launch counts on from there: reset it in the branch that knows the count is complete, directly (not under a further condition or in a loop)}}
        if n == lm.num_blocks(1) - 1:  # expected-note {{the count of 'arrived' is complete in this branch}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            if lm.block_id(0) == 0:
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the reset in a loop that runs no iteration when S = 1
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-error {{counter 'arrived' is left at the count of its blocks when the launch ends, and the next launch counts on from there: reset it in the branch that knows the count is complete, directly (not under a further condition or in a loop)}}
        if n == lm.num_blocks(1) - 1:  # expected-note {{the count of 'arrived' is complete in this branch}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for t in lm.range(1, lm.num_blocks(1)):
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# an exchange with 0 at the start of every block: a block's reset may wipe out
# another's count, so no block sees the last count
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
        lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: 2 atomics of the kernel update it, one an exchange outside the branch on its old value, which may wipe out other blocks' counts}}
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a ticket compared with '<': no branch takes the last block, nothing resets it
@cake.schedule(grid=(M // 64,))
def k(lm, Y: LM.tensor2d[64, 64], M: LM.i32):
    ticket = lm.workspace(shape=(1,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t = lm.atomic(ticket, coords=(0,), order="relaxed")  # expected-error {{counter 'ticket' is left at the count of its blocks when the launch ends}}
        if t < 1:
            lm.store_tile(Y, coords=(0, 0), src=acc)

# -----
# a work queue whose counter nothing resets
@cake.schedule(grid=(G,))
def wq(lm, X: LM.tensor2d[M, 64], Y: LM.tensor2d[M, 64], M: LM.i32, G: LM.i32, T: LM.i32):
    ctr = lm.workspace(shape=(1,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        for it in lm.range(0, T):
            t = lm.atomic(ctr, coords=(0,))  # expected-error {{counter 'ctr' is left at the count of its blocks when the launch ends}}
            if t < (M + 63) // 64:
                a = lm.load_tile(X, coords=(0, t * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.store_tile(Y, coords=(0, t * 64), src=a)

# -----
# the work queue's finish counter counted before the tickets are taken: its
# last block may reset the queue while other blocks still take tickets
@cake.schedule(grid=(G,))
def wq(lm, X: LM.tensor2d[M, 64], Y: LM.tensor2d[M, 64], M: LM.i32, G: LM.i32, T: LM.i32):
    ctr = lm.workspace(shape=(1,), dtype=lm.i32)
    done = lm.workspace(shape=(1,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        d = lm.atomic(done, coords=(0,), order="acq_rel")
        for it in lm.range(0, T):
            t = lm.atomic(ctr, coords=(0,))  # expected-error {{counter 'ctr' is left at the count of its blocks when the launch ends}}
            if t < (M + 63) // 64:
                a = lm.load_tile(X, coords=(0, t * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.store_tile(Y, coords=(0, t * 64), src=a)
        if d == lm.num_blocks(0) - 1:
            lm.atomic(ctr, coords=(0,), value=0, op="exch")
            lm.atomic(done, coords=(0,), value=0, op="exch")

# -----
# the work queue reset by a finish counter of each block's own: its 'last block'
# (every block) resets the queue while other blocks still take tickets
@cake.schedule(grid=(G,))
def wq(lm, X: LM.tensor2d[M, 64], Y: LM.tensor2d[M, 64], M: LM.i32, G: LM.i32, T: LM.i32):
    ctr = lm.workspace(shape=(1,), dtype=lm.i32)
    done = lm.workspace(shape=(G,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        for it in lm.range(0, T):
            t = lm.atomic(ctr, coords=(0,))  # expected-error {{counter 'ctr' is left at the count of its blocks when the launch ends}}
            if t < (M + 63) // 64:
                a = lm.load_tile(X, coords=(0, t * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.store_tile(Y, coords=(0, t * 64), src=a)
        d = lm.atomic(done, coords=(lm.block_id(0),), order="acq_rel")
        if d == 0:
            lm.atomic(ctr, coords=(0,), value=0, op="exch")
            lm.atomic(done, coords=(lm.block_id(0),), value=0, op="exch")

# -----
# one queue per block_id(1), reset by a finish counter of all blocks: its last
# block resets only its own queue (found by review)
@cake.schedule(grid=(G, 2))
def wq(lm, X: LM.tensor2d[M, 64], Y: LM.tensor2d[M, 64], M: LM.i32, G: LM.i32, T: LM.i32):
    ctr = lm.workspace(shape=(2,), dtype=lm.i32)
    done = lm.workspace(shape=(1,), dtype=lm.i32)
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        for it in lm.range(0, T):
            t = lm.atomic(ctr, coords=(lm.block_id(1),))  # expected-error {{counter 'ctr' is left at the count of its blocks when the launch ends}}
            if t < (M + 63) // 64:
                a = lm.load_tile(X, coords=(0, t * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.store_tile(Y, coords=(0, t * 64), src=a)
        d = lm.atomic(done, coords=(0,), order="acq_rel")
        if d == 2 * lm.num_blocks(0) - 1:
            lm.atomic(ctr, coords=(lm.block_id(1),), value=0, op="exch")
            lm.atomic(done, coords=(0,), value=0, op="exch")

# -----
# A count the gate cannot prove (the atomic in a loop) is -Wunproven, and the
# branch is still taken as the last block's for the ordering rules: a
# relaxed atomic does not acquire the parts, a part stored after the atomic
# is not released (as a schedule lowered with -Wno-error=unproven needs).
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        for j in lm.range(0, 2):
            acc = lm.fill(acc, 1.0)
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-note {{'part' written here}}
            n = lm.atomic(arrived, coords=(lm.block_id(0),), order="relaxed")  # expected-note 2 {{the atomic on 'arrived' is here}}
            if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: the atomic runs in a loop or under a condition, not once per block}}
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' reads 'part', which other blocks of the launch write, in a branch on an atomic of order "relaxed", which does not acquire their writes (order="acq_rel" does); it may read the data before they have written it}}
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        for j in lm.range(0, 2):
            acc = lm.fill(acc, 1.0)
            n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note 2 {{the atomic on 'arrived' is here}}
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' writes 'part', which other blocks of the launch read, after the atomic that tells them it is complete; they may read it before it is written}} expected-note {{'part' written here}}
            if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: the atomic runs in a loop or under a condition, not once per block}}
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")  # expected-error {{role 'math' loads 'part' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# under a branch the blocks sharing the counter decide apart (the index
# along which they share it): not every sharer counts, so the last count
# may never come
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.block_id(1) == 0:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)
            n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
            if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: the atomic runs in a loop or under a condition, not once per block}}
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                for s in lm.range(1, lm.num_blocks(1)):
                    acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# under a branch on a value read at run time
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], P: LM.tensor1d, M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=(M // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        if lm.load_scalar(P, coords=(lm.block_id(0),), lo=0, hi=1) > 0:
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
        else:
            lm.store_tile(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), src=acc)  # expected-error {{cannot prove that the blocks storing 'part' for the last block of their count store disjoint tiles: the store lies under a branch on a value read at run time (an atomic's old value, lm.load_scalar), which the tiles' rules do not follow}}
            n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note 2 {{the atomic on 'arrived' is here}}
            if n == lm.num_blocks(1) - 1:  # expected-error {{cannot prove that the branch on the old value of 'arrived' takes the last of the blocks that update it: the atomic runs in a loop or under a condition, not once per block}}
                acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                for s in lm.range(1, lm.num_blocks(1)):
                    acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
                lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
                lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
