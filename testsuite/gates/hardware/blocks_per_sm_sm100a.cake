# blocks_per_sm= on sm_100a: the resident blocks' TMEM regions share the
# multiprocessor's 512 columns (each block what tcgen05.alloc takes: a power of two of at
# least 32 columns up to its region's last).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_100a %s
# fail: 2 blocks whose region ends at column 384 (each takes 512).
@cake.schedule(blocks_per_sm=2)  # expected-error {{which need 1024 TMEM columns (2 x 512: tcgen05.alloc takes a power of two for columns up to 384); a multiprocessor of sm_100a has 512 columns}}
def k(lm, A: LM.tma2d, B: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    acc = lm.tmem(cols=256, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=p)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(A, coords=(0, s * 64), stage=s, barrier=full)
            b.tma_load(B, coords=(0, s * 64), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.commit(empty, stage=s)
# -----
# pass: 2 blocks whose region ends at column 128.
# expected-no-diagnostics
@cake.schedule(blocks_per_sm=2)
def k(lm, A: LM.tma2d, B: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=p)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(A, coords=(0, s * 64), stage=s, barrier=full)
            b.tma_load(B, coords=(0, s * 64), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.commit(empty, stage=s)
# -----
# fail: 3 blocks whose region ends at column 160: tcgen05.alloc takes 256 columns each.
@cake.schedule(blocks_per_sm=3)  # expected-error {{which need 768 TMEM columns (3 x 256: tcgen05.alloc takes a power of two for columns up to 160); a multiprocessor of sm_100a has 512 columns}}
def k(lm, A: LM.tma2d, B: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    acc = lm.tmem(cols=32, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=p)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(A, coords=(0, s * 64), stage=s, barrier=full)
            b.tma_load(B, coords=(0, s * 64), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.commit(empty, stage=s)
# -----
# pass: ending at column 128, each takes 128: 384.
# expected-no-diagnostics
@cake.schedule(blocks_per_sm=3)
def k(lm, A: LM.tma2d, B: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=p)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(A, coords=(0, s * 64), stage=s, barrier=full)
            b.tma_load(B, coords=(0, s * 64), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.mma(acc, a[s], b[s], init=(s == 0))
            lm.commit(empty, stage=s)
