# Broken variants of pass_epilogue_store_role.cake (named barriers over a
# subset of roles, issue 34): each hangs or races on the GPU, and each is
# an error at the line that causes it.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# -----
# A role not listed on the named barrier syncs on it: its warps count toward the others'.
@cake.schedule(grid=((M + 63) // 64, (N + 63) // 64))
def outsider(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    extra = lm.role(warps=[8, 9, 10, 11])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.named_barrier(roles=[load, math])  # expected-note {{'staged' declared here}}
    with load:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        lm.sync(staged)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.sync(staged)
    with extra:
        lm.sync(staged)  # expected-error {{role 'extra' syncs on named barrier 'staged', which is for roles 'load', 'math': its warps would count toward theirs, so a meeting completes with some of them missing}}
# -----
# The math role, listed, never syncs: the load role's lm.sync waits for it forever (and its TMA store reads c_s with no hand-off).
@cake.schedule(grid=((M + 63) // 64, (N + 63) // 64))
def absent(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.named_barrier(roles=[load, math])  # expected-error {{role 'math' is one of named barrier 'staged''s roles but never syncs on it: the other roles' lm.sync on it wait for its warps forever}}
    with load:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        lm.sync(staged)  # expected-note {{role 'load' syncs on 'staged' here}}
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))  # expected-error {{role 'load' reads 'c_s', which role 'math' writes, without waiting on a barrier that role 'math' signals after the write}}
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)  # expected-note {{'c_s' written here}}
        lm.fence_proxy()
# -----
# The load role meets twice, the math role once: the second meeting never completes.
@cake.schedule(grid=((M + 63) // 64, (N + 63) // 64))
def count(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.named_barrier(roles=[load, math])
    with load:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        lm.sync(staged)  # expected-note {{role 'load' syncs on 'staged' here}}
        lm.sync(staged)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))  # expected-error {{role 'load' reads 'c_s', which role 'math' writes, without waiting on a barrier that role 'math' signals after the write}}
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)  # expected-note {{'c_s' written here}}
        lm.fence_proxy()
        lm.sync(staged)  # expected-error {{named barrier 'staged': role 'load' meets at it 2 time(s) and role 'math' 1 time(s); a meeting some of its roles skip hangs the others}}
# -----
# The load role meets before issuing the copies the math role waits for before its own meeting: a deadlock.
@cake.schedule(grid=((M + 63) // 64, (N + 63) // 64))
def circular(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.named_barrier(roles=[load, math])
    with load:
        lm.sync(staged)  # expected-error {{roles wait for each other before either arrives: role 'load' syncs on 'staged', which role 'math' reaches only later; role 'math' waits on 'full', which role 'load' signals only later}}
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(full, stage=k)  # expected-note {{role 'math' waits on 'full' here}}
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.sync(staged)
# -----
# The math role meets before staging c_s: the meeting hands nothing over, and the TMA store may read c_s before the stores.
@cake.schedule(grid=((M + 63) // 64, (N + 63) // 64))
def sync_before_store(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=32768, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    staged = lm.named_barrier(roles=[load, math])
    with load:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, lm.block_id(0) * 64), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, lm.block_id(1) * 64), stage=k, barrier=full)
        lm.sync(staged)
        c_s.tma_store(C, coords=(lm.block_id(1) * 64, lm.block_id(0) * 64))  # expected-error {{role 'load' reads 'c_s', which role 'math' writes, without waiting on a barrier that role 'math' signals after the write}}
        lm.tma_store_wait()
    with math:
        for k in lm.range(0, (K + 63) // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        lm.sync(staged)
        c_s.store(out)  # expected-note {{'c_s' written here}}
        lm.fence_proxy()
# -----
# The two roles meet once per iteration of loops over different run-time
# counts (M and N): equal only when M == N, which the gate cannot tell, so
# the count is unproven (an error unless -Wno-error=unproven).
@cake.schedule()
def unproven_count(lm, M: LM.i32, N: LM.i32):
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    turn = lm.named_barrier(roles=[load, math])
    with load:
        for i in lm.range(0, M):
            lm.sync(turn)
    with math:
        for i in lm.range(0, N):
            lm.sync(turn)  # expected-error {{cannot prove that the roles of named barrier 'turn' meet at it equally often: role 'load' meets at it in range(0, M, 1) and role 'math' in range(0, N, 1)}}
