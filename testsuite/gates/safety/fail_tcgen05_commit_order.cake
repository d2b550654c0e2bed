# tcgen05 hand-offs and releases signalled before the work they stand for
# (issue 34): a plain arrive handing over an accumulator the tensor core is
# still writing, a commit issued before the MMAs it should cover, and a
# stage released by a commit issued before the MMA that reads it. Passing
# near-miss: pass_tcgen05_commit_after.cake (and examples/mandatory_forms.cake),
# whose broken variants are the last two parts.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_100a %s
# plain_arrive: The MMA warp tells the epilogue the accumulator is ready with a plain lm.arrive: the arrival comes at once, while tcgen05 may still be writing TMEM.
@cake.schedule()
def k(lm, Q: LM.tma3d, K: LM.tma3d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=3)
    b = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16, stage=3)
    c = pool.view(offset=98304, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(Q, coords=(0, 0, s), stage=s, barrier=full)
            b.tma_load(K, coords=(0, 0, s), stage=s, barrier=full)
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.fence_proxy()
            lm.mma(acc, a[s], b[s], init=(s == 0))  # expected-note {{'acc' written here}}
            lm.commit(empty, stage=s)
        lm.arrive(done, stage=0)  # expected-error {{role 'math' hands 'acc' to role 'epi' (arrive on 'done') while the asynchronous 'mma' that writes it may still be running; signal the hand-off with lm.commit, whose arrival comes when the tensor core is done}}
    with epi:
        lm.wait(done, stage=0)
        lm.tmem_load(out, acc)
        res = lm.cast(out, lm.bf16)
        c.store(res)
        lm.fence_proxy()
        lm.role_sync()
        c.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
# -----
# commit_before_loop: The commit that hands the accumulator over is issued before the MMAs: a commit covers only the work issued before it.
@cake.schedule()
def k(lm, Q: LM.tma3d, K: LM.tma3d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=3)
    b = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16, stage=3)
    c = pool.view(offset=98304, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(Q, coords=(0, 0, s), stage=s, barrier=full)
            b.tma_load(K, coords=(0, 0, s), stage=s, barrier=full)
    with math:
        lm.commit(done, stage=0)
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.fence_proxy()
            lm.mma(acc, a[s], b[s], init=(s == 0))  # expected-note {{'acc' written here}}
            lm.commit(empty, stage=s)
    with epi:
        lm.wait(done, stage=0)
        lm.tmem_load(out, acc)  # expected-error {{role 'epi' reads 'acc', which role 'math' writes, without waiting on a barrier that role 'math' signals after the write}}
        res = lm.cast(out, lm.bf16)
        c.store(res)
        lm.fence_proxy()
        lm.role_sync()
        c.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
# -----
# commit_release_before_mma: The stage is released with a commit issued before the MMA that reads it: the commit's arrival does not wait for that MMA.
@cake.schedule()
def k(lm, Q: LM.tma3d, K: LM.tma3d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=3)  # expected-note {{'a' declared here}}
    b = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16, stage=3)  # expected-note {{'b' declared here}}
    c = pool.view(offset=98304, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=3)
    full = lm.barrier(count=3, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=3, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    with load:
        for s in lm.range(0, n):
            lm.wait(empty, stage=s)
            a.tma_load(Q, coords=(0, 0, s), stage=s, barrier=full)  # expected-error {{role 'load' overwrites stage s of 'a' when the ring wraps but never waits for role 'math' to release it}}
            b.tma_load(K, coords=(0, 0, s), stage=s, barrier=full)  # expected-error {{role 'load' overwrites stage s of 'b' when the ring wraps but never waits for role 'math' to release it}}
    with math:
        for s in lm.range(0, n):
            lm.wait(full, stage=s)
            lm.fence_proxy()
            lm.commit(empty, stage=s)  # expected-note {{'a' released here}} expected-note {{'b' released here}}
            lm.mma(acc, a[s], b[s], init=(s == 0))  # expected-error {{role 'math' reads stage s of 'a' after releasing it (commit on 'empty'): the producer may already be overwriting it; a commit's arrival covers only the work issued before it: commit after it}} expected-error {{reads stage s of 'b' after releasing it (commit on 'empty')}}
        lm.commit(done, stage=0)
    with epi:
        lm.wait(done, stage=0)
        lm.tmem_load(out, acc)
        res = lm.cast(out, lm.bf16)
        c.store(res)
        lm.fence_proxy()
        lm.role_sync()
        c.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
# -----
# tile_commit_before_k_loop: pass_tcgen05_commit_after.cake with the tile's hand-off committed before the tile's MMAs: the epilogue reads the previous tile's arrival.
@cake.schedule()
def k(lm, A: LM.tma2d[T, 64], B: LM.tma2d, O: LM.tma2d, T: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    c = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    free = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    with load:
        for t in lm.range(0, T):
            for s in lm.range(0, 4):
                lm.wait(empty, stage=t * 4 + s)
                a.tma_load(A, coords=(0, s * 64), stage=t * 4 + s, barrier=full)
                b.tma_load(B, coords=(0, s * 64), stage=t * 4 + s, barrier=full)
    with math:
        for t in lm.range(0, T):
            lm.wait(free, stage=t)
            lm.commit(done, stage=t)
            for s in lm.range(0, 4):
                lm.wait(full, stage=t * 4 + s)
                lm.mma(acc, a[t * 4 + s], b[t * 4 + s], init=(s == 0))  # expected-note {{'acc' written here}}
                lm.commit(empty, stage=t * 4 + s)
    with epi:
        for t in lm.range(0, T):
            lm.wait(done, stage=t)
            lm.tmem_load(out, acc)  # expected-error {{role 'epi' reads 'acc', which role 'math' writes, without waiting on a barrier that role 'math' signals after the write}}
            lm.arrive(free, stage=t, per="warp")
            res = lm.cast(out, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c.store(res)
            lm.fence_proxy()
            lm.role_sync()
            c.tma_store(O, coords=(0, t * 128))
        lm.tma_store_wait()
# -----
# release_before_tmem_load: pass_tcgen05_commit_after.cake with the accumulator handed back before the epilogue's TMEM load: the next tile's MMAs may overwrite it under the load.
@cake.schedule()
def k(lm, A: LM.tma2d[T, 64], B: LM.tma2d, O: LM.tma2d, T: LM.i32):
    pool = lm.smem(131072)
    a = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2)
    b = pool.view(offset=32768, shape=(64, 128), dtype=lm.bf16, stage=2)
    c = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16)
    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)
    load = lm.role(warps=[0])
    math = lm.role(warps=[1])
    epi = lm.role(warps=[2, 3, 4, 5])
    out = lm.regs(shape=(128, 128), dtype=lm.f32, role=epi)
    p = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], init_count=1, pipeline=p)
    empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=1, pipeline=p)
    done = lm.barrier(count=1, prod=[math], cons=[epi], init_count=1)
    free = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    with load:
        for t in lm.range(0, T):
            for s in lm.range(0, 4):
                lm.wait(empty, stage=t * 4 + s)
                a.tma_load(A, coords=(0, s * 64), stage=t * 4 + s, barrier=full)
                b.tma_load(B, coords=(0, s * 64), stage=t * 4 + s, barrier=full)
    with math:
        for t in lm.range(0, T):
            lm.wait(free, stage=t)
            for s in lm.range(0, 4):
                lm.wait(full, stage=t * 4 + s)
                lm.mma(acc, a[t * 4 + s], b[t * 4 + s], init=(s == 0))
                lm.commit(empty, stage=t * 4 + s)
            lm.commit(done, stage=t)
    with epi:
        for t in lm.range(0, T):
            lm.wait(done, stage=t)
            lm.arrive(free, stage=t, per="warp")  # expected-note {{'acc' released here}}
            lm.tmem_load(out, acc)  # expected-error {{role 'epi' reads 'acc' after releasing it (arrive on 'free'): the producer may already be overwriting it}}
            res = lm.cast(out, lm.bf16)
            lm.tma_store_wait()
            lm.role_sync()
            c.store(res)
            lm.fence_proxy()
            lm.role_sync()
            c.tma_store(O, coords=(0, t * 128))
        lm.tma_store_wait()
