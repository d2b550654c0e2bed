# Generic accesses of one view through register fragments whose layouts give
# its elements to different threads, with no lm.role_sync() between them
# (safety.fragment-cross-thread): a row vector stored by one lane of each
# four and loaded by all four; a column vector loaded where the role then
# stores a tile; a tile stored at the end of one iteration and loaded as a
# row vector at the top of the next. Near misses that pass:
# pass_fragment_same_thread.cake.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64]):
    pool = lm.smem(32768)
    s_s = pool.view(offset=0, shape=(1, 64), dtype=lm.f32)
    y_s = pool.view(offset=1024, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        s_s.store(lm.rowmax(v))  # expected-note {{'s_s' written here}}
        r = s_s.load(rows=True)  # expected-error {{role 'math' loads 's_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
        y_s.store(v * r)
        lm.role_sync()
        y_s.copy_to(Y, coords=(0, 0))

# -----
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64]):
    pool = lm.smem(32768)
    s_s = pool.view(offset=0, shape=(1, 64), dtype=lm.f32)
    y_s = pool.view(offset=1024, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        s_s.store(lm.rowmax(v))
        lm.role_sync()
        r = s_s.load(rows=True)  # expected-note {{'s_s' read here}}
        s_s.store(lm.rowsum(v))  # expected-error {{role 'math' stores 's_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded; add 'lm.role_sync()' between them}}
        y_s.store(v * r)
        lm.role_sync()
        y_s.copy_to(Y, coords=(0, 0))

# -----
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 64], T: LM.i32):
    pool = lm.smem(32768)
    s_s = pool.view(offset=0, shape=(1, 64), dtype=lm.f32)
    y_s = pool.view(offset=1024, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        for t in lm.range(0, T):
            s_s.store(lm.rowmax(v))  # expected-error {{role 'math' stores 's_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded in the previous iteration; add 'lm.role_sync()' between them}}
            lm.role_sync()
            r = s_s.load(rows=True)  # expected-note {{'s_s' read here}}
            v = v * r
        y_s.store(v)
        lm.role_sync()
        y_s.copy_to(Y, coords=(0, 0))

# -----
# Global memory alike: a tile stored in the rows layout and one row of it
# loaded back as a column vector (every warp reads the row one warp wrote).
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256], Y: LM.tensor2d[4, 256]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 256), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, 0), src=x * 2.0)  # expected-note {{'Y' written here}}
        y = lm.load_tile(Y, coords=(0, 0), shape=(1, 256), dtype=lm.f32)  # expected-error {{role 'rows' loads 'Y' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
        lm.store_tile(X, coords=(0, 0), src=x + y)

# -----
# The same tile at the same coordinates, but spread over the warps
# differently (one warp per row, then two): warp 1 reads half of the row
# warp 0 wrote.
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 512], Y: LM.tensor2d[4, 512], Z: LM.tensor2d[4, 512]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 512), dtype=lm.f32)
        lm.store_tile(Y, coords=(0, 0), src=x)  # expected-note {{'Y' written here}}
        y = lm.load_tile(Y, coords=(0, 0), shape=(4, 512), dtype=lm.f32, warps_per_row=2)  # expected-error {{role 'rows' loads 'Y' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
        lm.store_tile(Z, coords=(0, 0), src=y)

# -----
# two stores of a global tensor at tiles 32 rows apart (tiles of 64): the
# second overwrites rows 32..63 of the first, whose elements other threads
# stored (near miss: two whole tiles apart, pass_fragment_same_thread.cake)
@cake.schedule(grid=((M + 95) // 96,))
def k(lm, Y: LM.tensor2d[M, 64], M: LM.i32):
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    acc2 = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        acc = lm.fill(acc, 1.0)
        acc2 = lm.fill(acc2, 2.0)
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 96), src=acc)  # expected-note {{'Y' written here}}
        lm.store_tile(Y, coords=(0, lm.block_id(0) * 96 + 32), src=acc2)  # expected-error {{role 'math' stores 'Y' through a register fragment whose layout gives its elements to other threads than the fragment it stored; add 'lm.role_sync()' between them}}
