# Broken variants of pass_cross_block_reduce.cake (blocks adding their parts
# into one workspace tile with TMA): the addition not waited for until it is
# written, or left pending, when the atomic says it is complete
# (safety.cross-block-release); the sum read without reset=True, or reset
# over another tile or half of it (safety.reduce-not-reset); a plain store
# into the tile the blocks add into (safety.reduce-store); the sum read
# before the count is complete (safety.cross-block-acquire); TMA stores of
# each block's part waited for only until they are read; an i32 sum
# (lower.tma-dtype); reset=True on a tensor parameter (sema.bad-value).
# Then the review's cases: the visible wait where it may not run (in a
# branch, the other branch, a loop); a second addition into a tile never
# reset; writes after the reset (safety.reduce-after-reset); the reset under
# a condition inside the branch; tiles not shared by exactly the blocks of a
# count (safety.reduce-tile); a view of another type than the workspace's.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# the wait for the reads only: the addition may still be writing at the atomic
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        lm.tma_store_wait()
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# no wait at all
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a visible wait that leaves the addition pending
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        lm.tma_store_wait(pending=1, visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the sum read without reset=True: the next launch adds onto it
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{'total' is added into by the blocks of the launch (tma_reduce_add) and left holding their sums when it ends, and the next launch adds onto them: read it in the branch that knows the count is complete with lm.load_tile(..., reset=True) over the tile the blocks add into}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# reset=True over another tile than the blocks add into
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{'total' is added into by the blocks of the launch (tma_reduce_add) and left holding their sums when it ends, and the next launch adds onto them: read it in the branch that knows the count is complete with lm.load_tile(..., reset=True) over the tile the blocks add into}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, 0), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)  # expected-error {{role 'math' reads 'total' at coordinates that do not name lm.block_id(0), which tells the blocks of different counts apart: it may read parts of another count's blocks}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# reset=True over half the tile
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{'total' is added into by the blocks of the launch (tma_reduce_add) and left holding their sums when it ends, and the next launch adds onto them: read it in the branch that knows the count is complete with lm.load_tile(..., reset=True) over the tile the blocks add into}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            half = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 32), dtype=lm.f32, layout="accumulator", reset=True)
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=half)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a plain store into the tile the blocks add into
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        lm.store_tile(total, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' stores into 'total', which the blocks of the launch add into with TMA (tma_reduce_add); a store that lands between two additions loses the earlier ones: store only in the branch that knows every block has added}}
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-note {{'total' written here}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the sum read before the count says every block has added
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-note {{'total' written here}}
        lm.tma_store_wait(visible=True)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator"))  # expected-error {{blocks of the launch may write the same tiles of tensor 'Y': no coordinate of its stores names lm.block_id(1)}} expected-error {{role 'math' reads 'total', which other blocks of the launch write, outside a branch on the old value of an atomic that acquires their writes (order="acquire" or "acq_rel"); it may read the data before they have written it}}
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# each block's part stored with TMA, waited for only until it is read
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    part = lm.workspace(shape=(S * ((M + 63) // 64 * 64), 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_store(part, coords=(0, lm.block_id(1) * ((M + 63) // 64 * 64) + lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'part', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        lm.tma_store_wait()
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(part, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            for s in lm.range(1, lm.num_blocks(1)):
                acc = acc + lm.load_tile(part, coords=(0, s * ((M + 63) // 64 * 64) + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator")
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# TMA adds floating-point tiles only
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.i32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.i32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.i32, role=math)
    with math:
        acc = lm.fill(acc, 1)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{an addition into 'total' has no sm_90a lowering: TMA adds into tensors of bf16, f16, f32, not i32}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.i32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# reset=True on the caller's tensor
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            acc = lm.load_tile(Y, coords=(0, 0), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)  # expected-error {{argument 'reset' of 'lm.load_tile' must be True only for a workspace tensor (lm.workspace), got the tensor parameter 'Y'}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the visible wait in a branch that may not run
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        if M > 1000:
            lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the addition in one branch, the visible wait in the other
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        if M > 1000:
            t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' stores 'total' under a condition the atomic that counts the block in does not share}} expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        else:
            lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note 2 {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the visible wait in a loop that may run no iteration
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        for i in lm.range(0, S - 1):
            lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# two additions, one tile read back to zero
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 128, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64 + lm.num_blocks(0) * 64))  # expected-error {{'total' is added into by the blocks of the launch (tma_reduce_add) and left holding their sums when it ends, and the next launch adds onto them: read it in the branch that knows the count is complete with lm.load_tile(..., reset=True) over the tile the blocks add into}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# an addition after the tile is read back to zero
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)  # expected-note {{'total' read back to zero here}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total' after reading it back to zero (reset=True): the next launch adds onto what this write leaves}}
            lm.tma_store_wait(visible=True)
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a store after the tile is read back to zero
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)  # expected-note {{'total' read back to zero here}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(total, coords=(0, lm.block_id(0) * 64), src=acc)  # expected-error {{role 'math' writes 'total' after reading it back to zero (reset=True): the next launch adds onto what this write leaves}}
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# the read back to zero under a condition inside the last block's branch
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{'total' is added into by the blocks of the launch (tma_reduce_add) and left holding their sums when it ends, and the next launch adds onto them: read it in the branch that knows the count is complete with lm.load_tile(..., reset=True) over the tile the blocks add into}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            if M > 1000:
                acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# one tile for every counter element
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, 0))  # expected-error {{the tile of 'total' this addition writes is not shared by exactly the blocks that count at 'arrived': its coordinates name other block indices than the counter's; the last of them would read and zero a sum other blocks still add into, or leave a sum behind}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note 2 {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, 0), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)  # expected-error {{role 'math' reads 'total' at coordinates that do not name lm.block_id(0), which tells the blocks of different counts apart: it may read parts of another count's blocks}}
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a tile per block, not per counter element
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(S * ((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(1) * ((M + 63) // 64) * 64 + lm.block_id(0) * 64))  # expected-error {{the tile of 'total' this addition writes is not shared by exactly the blocks that count at 'arrived': a coordinate depends on something other than block indices, parameters and constants; the last of them would read and zero a sum other blocks still add into, or leave a sum behind}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(1) * ((M + 63) // 64) * 64 + lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# a bf16 view of an f32 workspace
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(lm.cast(acc, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{a TMA copy of bf16 elements of the workspace 'total' has no sm_90a lowering: the workspace holds f32: its copies' views are of that type}}
        lm.tma_store_wait(visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# pending=1 where the addition is the newest group (the other TMA store came
# first): the wait leaves the addition pending
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], Z: LM.tma2d, M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_store(Z, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete: lm.tma_store_wait(visible=True) between them waits until its writes are done; they may read it before it is written}}
        lm.tma_store_wait(pending=1, visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)

# -----
# pending=1 after a wait for the addition's reads only (no visible=True): the
# addition is still the newest group, its writes pending (found by review)
@cake.schedule(grid=((M + 63) // 64, S))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32, S: LM.i32):
    arrived = lm.workspace(shape=((M + 63) // 64,), dtype=lm.i32)
    total = lm.workspace(shape=(((M + 63) // 64) * 64, 64), dtype=lm.f32, tma=True)
    pool = lm.smem(64 * 64 * 4)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        t_s.store(acc)
        lm.fence_proxy()
        lm.role_sync()
        t_s.tma_reduce_add(total, coords=(0, lm.block_id(0) * 64))  # expected-error {{role 'math' writes 'total', which other blocks of the launch read, but the TMA copy may still be writing when the atomic after it says it is complete}}
        lm.tma_store_wait()
        lm.tma_store_wait(pending=1, visible=True)
        n = lm.atomic(arrived, coords=(lm.block_id(0),), order="acq_rel")  # expected-note {{the atomic on 'arrived' is here}}
        if n == lm.num_blocks(1) - 1:
            acc = lm.load_tile(total, coords=(0, lm.block_id(0) * 64), shape=(64, 64), dtype=lm.f32, layout="accumulator", reset=True)
            lm.atomic(arrived, coords=(lm.block_id(0),), value=0, op="exch")
            lm.store_tile(Y, coords=(0, lm.block_id(0) * 64), src=acc)
