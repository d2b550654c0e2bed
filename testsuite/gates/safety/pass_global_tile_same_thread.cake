# Near misses of the global-memory part of fail_fragment_cross_thread.cake:
# a tile read and written back in place (an in-place residual update: each
# thread stores the elements it loaded), a store of one tile and a load of
# another tile of the same layout at the same coordinates, and a row read
# back as a column vector between two role syncs.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256], Y: LM.tensor2d[4, 256]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 256), dtype=lm.f32)
        lm.store_tile(X, coords=(0, 0), src=x * 2.0)
        lm.store_tile(Y, coords=(0, 0), src=x)
        y = lm.load_tile(Y, coords=(0, 0), shape=(4, 256), dtype=lm.f32)
        lm.role_sync()
        z = lm.load_tile(Y, coords=(0, 0), shape=(1, 256), dtype=lm.f32)
        lm.role_sync()  # every warp read row 0 before warp 0 rewrites it
        lm.store_tile(Y, coords=(0, 0), src=y + z)
