# view.load(shape=(1, 1)) refused where it means something else: another
# shape than (1, 1) or the view's, and with rows=True or layout="rows"
# (each reads the whole view); the lowering reads 32-bit elements alone (a
# 16-bit one would be half a register), and a 1 x 1 fragment is neither
# stored to shared memory nor moved to or from global memory. Near miss:
# testsuite/codegen/scalar_loads.test.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(1, 256), dtype=lm.f32)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows], init_count=128)
    with rows:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        a = x_s.load(shape=(1, 8))  # expected-error {{argument 'shape' of 'view.load' must be (1, 1) (the first element) or the view's shape (1, 256), got (1, 8)}}
        b = x_s.load(shape=(1, 1), rows=True)  # expected-error {{argument 'shape' of 'view.load' must be the view's shape with rows=True or layout="rows", got (1, 1)}}
        c = x_s.load(shape=(1, 1), layout="rows")  # expected-error {{argument 'shape' of 'view.load' must be the view's shape with rows=True or layout="rows", got (1, 1)}}

# -----
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256], Y: LM.tensor2d[64, 64], F: LM.tensor2d[4, 8]):
    pool = lm.smem(32768)
    x_s = pool.view(offset=0, shape=(1, 256), dtype=lm.bf16)
    y_s = pool.view(offset=1024, shape=(64, 64), dtype=lm.f32)
    f_s = pool.view(offset=512, shape=(1, 8), dtype=lm.f32)
    g_s = pool.view(offset=768, shape=(1, 1), dtype=lm.f32)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows], init_count=384)
    with rows:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        y_s.cp_async(Y, coords=(0, 0), barrier=got)
        f_s.cp_async(F, coords=(0, 1), barrier=got)
        lm.wait(got, stage=0)
        a = x_s.load(shape=(1, 1))  # expected-error {{a load of 'x_s' has no sm_90a lowering: views of bf16, f16, f32, i32, e4m3, e5m2 are loaded: tiles (a swizzled one's rows one swizzle span or whole panels of it), unswizzled M x 1 and 1 x N vectors, 1 x 1 views of 32-bit elements}}
        t = f_s.load(shape=(1, 1))
        lm.role_sync()
        g_s.store(t)  # expected-error {{a store of 't' into 'g_s' has no sm_90a lowering: a 1 x 1 fragment (one value in every thread) is loaded from shared memory, not stored}}
        lm.store_tile(Y, coords=(0, 0), src=t)  # expected-error {{a store of 't' into 'Y' has no sm_90a lowering: a 1 x 1 fragment (one value in every thread) comes from a 1 x 1 view of shared memory (view.load); tiles and vectors move between registers and global memory}}
