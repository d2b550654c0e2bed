# Forms of the rows layout the lowering refuses, each at its operation's
# line with what it lowers instead: a tile whose rows do not divide among
# the role's warps or whose columns are not a multiple of 256; a rows-layout
# fragment stored to shared memory or used by wgmma; a row vector loaded
# from global memory.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[6, 256], Y: LM.tensor2d[4, 384]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(6, 256), dtype=lm.bf16)  # expected-error {{the register fragment 'x' (6x256) has no sm_90a lowering: fragments in the rows layout are tiles, M x 1 row vectors or 1 x N column vectors spread by rows over the role's warps: the rows layout gives each of the 4 warps of role 'rows' as many whole rows; 6 rows do not divide among them}}
        y = lm.load_tile(Y, coords=(0, 0), shape=(4, 384), dtype=lm.bf16)  # expected-error {{the register fragment 'y' (4x384) has no sm_90a lowering: fragments in the rows layout are tiles, M x 1 row vectors or 1 x N column vectors spread by rows over the role's warps: the rows layout gives each lane 8 consecutive columns of every 256; 384 columns are not a multiple of 256}}

# -----
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[64, 256], S: LM.tensor2d[64, 1]):
    pool = lm.smem(65536)
    x_s = pool.view(offset=0, shape=(64, 256), dtype=lm.f32)
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(64, 256), dtype=lm.f32)
        x_s.store(x)  # expected-error {{a store of 'x' into 'x_s' has no sm_90a lowering: fragments in the rows layout are stored to global memory (lm.store_tile), not to shared memory}}
        s = lm.load_tile(S, coords=(0, 0), shape=(64, 1), dtype=lm.f32)  # expected-error {{a load of a tile of 'S' has no sm_90a lowering: tiles and column vectors of 8-, 16- or 32-bit elements in the rows layout move between registers and a 2-d tensor}}

# -----
@cake.schedule(grid=(1,))
def k(lm, A: LM.tensor2d[64, 256], B: LM.tma2d):
    pool = lm.smem(65536)
    b_s = pool.view(offset=0, shape=(256, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=math, layout="rows")
    got = lm.barrier(count=1, prod=[math], cons=[math])
    with math:
        b_s.tma_load(B, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        a = lm.load_tile(A, coords=(0, 0), shape=(64, 64), dtype=lm.bf16, layout="accumulator")
        lm.mma(acc, a, b_s.T, init=True)  # expected-error {{the register fragment 'acc' (64x256) has no sm_90a lowering: fragments lower to the accumulator layout of the target's tensor-core path: it is in the rows layout, and this operation takes the accumulator layout}}
        lm.mma_commit()
        lm.mma_wait(pending=0)

# -----
# warps_per_row must divide the role's warps, and each warp's part of a row
# be a multiple of 256 columns.
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 1024], Y: LM.tensor2d[1, 512]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 1024), dtype=lm.bf16, warps_per_row=3)  # expected-error {{the register fragment 'x' (4x1024) has no sm_90a lowering: fragments in the rows layout are tiles, M x 1 row vectors or 1 x N column vectors spread by rows over the role's warps: warps_per_row=3 does not divide the 4 warps of role 'rows'}}
        y = lm.load_tile(Y, coords=(0, 0), shape=(1, 512), dtype=lm.bf16, warps_per_row=4)  # expected-error {{the register fragment 'y' (1x512) has no sm_90a lowering: fragments in the rows layout are tiles, M x 1 row vectors or 1 x N column vectors spread by rows over the role's warps: the rows layout gives each lane 8 consecutive columns of every 256 of its warp's part; 512 columns are not a multiple of 256 x 4 warps per row}}

# -----
# A rows-layout fragment as wgmma's register A operand; a tile whose first
# column is not a constant multiple of 8 (each lane's vector access).
@cake.schedule(grid=(1,))
def k(lm, A: LM.tensor2d[64, 256], B: LM.tma2d, X: LM.tensor2d[4, 512], Y: LM.tensor2d[64, 64], Z: LM.tensor2d[4, 512], C: LM.i32):
    pool = lm.smem(65536)
    b_s = pool.view(offset=0, shape=(64, 256), dtype=lm.bf16, swizzle="128B")
    y_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    got = lm.barrier(count=1, prod=[math], cons=[math])
    with math:
        b_s.tma_load(B, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        a = lm.load_tile(A, coords=(0, 0), shape=(64, 256), dtype=lm.bf16)
        lm.mma(acc, a, b_s.T, init=True)  # expected-error {{the register fragment 'a' (64x256) has no sm_90a lowering: fragments in the rows layout are tiles, M x 1 row vectors or 1 x N column vectors spread by rows over the role's warps: it is in the rows layout, and this operation takes the accumulator layout}}
        lm.mma_commit()
        lm.mma_wait(pending=0)
        y_s.store(acc)
        lm.role_sync()
        y_s.copy_to(Y, coords=(0, 0))
        x = lm.load_tile(X, coords=(C, 0), shape=(4, 256), dtype=lm.f32)  # expected-error {{a load of a tile of 'X' has no sm_90a lowering: the first column of a tile in the rows layout is provably a multiple of 8 (each lane moves 8 aligned elements per access), as a constant or a multiple of one}}
        lm.store_tile(Z, coords=(4, 0), src=x)  # expected-error {{a store of 'x' into 'Z' has no sm_90a lowering: the first column of a tile in the rows layout is provably a multiple of 8 (each lane moves 8 aligned elements per access), as a constant or a multiple of one}}

# -----
# view.load(layout="rows") reads unswizzled views: not a swizzled one.
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256]):
    pool = lm.smem(16384)
    x_s = pool.view(offset=0, shape=(4, 256), dtype=lm.bf16, swizzle="128B")
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows], init_count=128)
    with rows:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        x = x_s.load(layout="rows")  # expected-error {{a load of 'x_s' has no sm_90a lowering: in the rows layout, unswizzled views of bf16, f16, f32, i32 are loaded as tiles (a 1 x N view as one row of every warp), not as M x 1 row vectors}}
