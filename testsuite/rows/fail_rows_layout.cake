# The rows layout (lm.regs(layout="rows"), lm.load_tile) checked by sema: an
# unknown layout name (with a fix-it), and fragments of the two layouts
# combined in one operation (their elements sit in different threads).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256]):
    rows = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(4, 256), dtype=lm.f32, role=rows, layout="row")  # expected-error {{argument 'layout' of 'lm.regs' must be one of "accumulator", "rows", got "row"; did you mean 'rows'?}}
    with rows:
        v = lm.fill(v, 1.0)

# -----
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[64, 256], Y: LM.tensor2d[64, 256]):
    rows = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 256), dtype=lm.f32, role=rows)
    with rows:
        acc = lm.fill(acc, 1.0)
        x = lm.load_tile(X, coords=(0, 0), shape=(64, 256), dtype=lm.f32)
        y = x + acc  # expected-error {{operands of 'lm.add' differ in layout: 'x' is in the rows layout and 'acc' in the accumulator layout; their elements sit in different threads}}

# -----
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 512], W: LM.tensor2d[1, 512]):
    rows = lm.role(warps=[0, 1, 2, 3])
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(2, 512), dtype=lm.f32, warps_per_row=2)
        w = lm.load_tile(W, coords=(0, 0), shape=(1, 512), dtype=lm.f32)
        y = x * w  # expected-error {{operands of 'lm.mul' differ in layout: 'x' is in the rows (warps_per_row=2) layout and 'w' in the rows layout; their elements sit in different threads}}

# -----
# Assignment keeps the declared fragment's layout: a value computed in
# another layout (or warps per row) is refused, not copied element by element.
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 512], Y: LM.tensor2d[4, 512]):
    rows = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(4, 512), dtype=lm.f32, role=rows, layout="rows")
    with rows:
        x = lm.load_tile(X, coords=(0, 0), shape=(4, 512), dtype=lm.f32, warps_per_row=2)
        v = x + 1.0  # expected-error {{operands of '=' differ in layout: 'v' is in the rows layout and '%5' in the rows (warps_per_row=2) layout; their elements sit in different threads}}
        lm.store_tile(Y, coords=(0, 0), src=v)

# -----
# view.load(layout="rows"): rows=True (the accumulator layout's row vector)
# cannot go with it, and warps_per_row= only with it.
@cake.schedule(grid=(1,))
def k(lm, X: LM.tensor2d[4, 256]):
    pool = lm.smem(8192)
    x_s = pool.view(offset=0, shape=(1, 256), dtype=lm.bf16)
    rows = lm.role(warps=[0, 1, 2, 3])
    got = lm.barrier(count=1, prod=[rows], cons=[rows], init_count=128)
    with rows:
        x_s.cp_async(X, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        a = x_s.load(rows=True, layout="rows")  # expected-error {{argument 'rows' of 'view.load' must be False with layout="rows", got True (rows=True makes an accumulator-layout row vector)}}
        b = x_s.load(warps_per_row=4)  # expected-error {{argument 'warps_per_row' of 'view.load' must be given only with layout="rows", got the accumulator layout}}
