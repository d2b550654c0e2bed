# Broken variants of pass_cp_async_next_stage.cake: the copy of a later
# stage goes out after this stage's wait, but the fence that should follow
# the read's own stage's wait comes before that wait (fence_before_wait),
# or runs in some iterations only (fence_some_iterations): a copy's bytes
# then reach a wgmma with no fence after the wait at which they land; the
# copy names the slot read in the same iteration (copy_same_slot); the
# role sync comes before the fence (sync_before_fence); the copy a lap or
# more ahead (copy_a_lap_ahead).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule(grid=(1,))
def fence_before_wait(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 2)
    with math:
        for p in lm.range(0, 2):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)  # expected-note {{'a_s' written here}}
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)  # expected-note {{'b_s' written here}}
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.fence_proxy()
            lm.role_sync()
            lm.wait(got, stage=i)  # expected-note 2 {{role 'math' waits on 'got' here}}
            if i + 2 < steps:
                a_s.cp_async(A, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
                b_s.cp_async(B, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
            lm.mma(o, a_s[i], b_s[i].T)  # expected-error {{role 'math' writes 'a_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}} expected-error {{role 'math' writes 'b_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

# -----
# The fence only after the first iteration: the next stage's copies, made
# in iteration i, are read in iteration i + 2 after a fence, but the
# prologue's stage 0 is read in iteration 0 with none.
@cake.schedule(grid=(1,))
def fence_some_iterations(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 2)
    with math:
        for p in lm.range(0, 2):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)  # expected-note {{'a_s' written here}}
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)  # expected-note {{'b_s' written here}}
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)  # expected-note 2 {{role 'math' waits on 'got' here}}
            if i + 2 < steps:
                a_s.cp_async(A, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
                b_s.cp_async(B, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)
            if i > 0:
                lm.fence_proxy()
            lm.role_sync()
            lm.mma(o, a_s[i], b_s[i].T)  # expected-error {{role 'math' writes 'a_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}} expected-error {{role 'math' writes 'b_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

# -----
# The copy in the loop names the slot the wgmma reads in the same
# iteration (stage i + 3 of 3): not told apart from the read, it reaches
# it with no fence after a wait at which it lands.
@cake.schedule(grid=(1,))
def copy_same_slot(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 3)
    with math:
        for p in lm.range(0, 3):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)
            if i + 3 < steps:
                a_s.cp_async(A, coords=((i + 3) * 64, 0), stage=i + 3, barrier=got)  # expected-note 2 {{'a_s' written here}}
                b_s.cp_async(B, coords=((i + 3) * 64, 0), stage=i + 3, barrier=got)  # expected-note 2 {{'b_s' written here}}
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(o, a_s[i], b_s[i].T)  # expected-error {{role 'math' reads stage i of 'a_s' after issuing its own copy into the same slot (stage i+3)}} expected-error {{role 'math' reads stage i of 'b_s' after issuing its own copy into the same slot (stage i+3)}} expected-error {{role 'math' writes 'a_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}} expected-error {{role 'math' writes 'b_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

# -----
# The role sync before the fence: what the next stage's copies wrote
# reaches the wgmma two iterations on with no sync after the fence that
# follows its own wait (pass_cp_async_next_stage.cake's copy_after_sync
# syncs after the fence).
@cake.schedule(grid=(1,))
def sync_before_fence(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 2)
    with math:
        for p in lm.range(0, 2):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)
            lm.role_sync()
            lm.fence_proxy()
            if i + 2 < steps:
                a_s.cp_async(A, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)  # expected-note {{'a_s' written here}}
                b_s.cp_async(B, coords=((i + 2) * 64, 0), stage=i + 2, barrier=got)  # expected-note {{'b_s' written here}}
            lm.mma(o, a_s[i], b_s[i].T)  # expected-error {{the MMA of each warpgroup of role 'math' reads its own rows of 'a_s' ('mma') right after the role's threads wrote it, but 'cp_async' wrote it}} expected-error {{the MMA of each warpgroup of role 'math' reads all of 'b_s' ('mma') right after the role's threads wrote it}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()

# -----
# The copy four stages ahead on a ring of three (found by review, helper-47):
# it lands over the slot the next iteration reads. The stage sequence says
# so; the fence rules do not take the stages as told apart (only a copy
# 1..stages-1 ahead of the read is), so they ask for the fence too.
@cake.schedule(grid=(1,))
def copy_a_lap_ahead(lm, A: LM.tensor2d, B: LM.tensor2d, O: LM.tma2d, n: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    b_s = pool.view(offset=24576, shape=(64, 64), dtype=lm.bf16, stage=3, swizzle="128B")
    o_s = pool.view(offset=49152, shape=(64, 64), dtype=lm.bf16, swizzle="128B")
    math = lm.role(warps=[0, 1, 2, 3])
    ring = lm.pipeline(stages=3)
    got = lm.barrier(count=3, prod=[math], cons=[math], init_count=256, pipeline=ring)  # expected-note {{barrier 'got' declared here}}
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    steps = lm.max(n, 4)
    with math:
        for p in lm.range(0, 4):
            a_s.cp_async(A, coords=(p * 64, 0), stage=p, barrier=got)
            b_s.cp_async(B, coords=(p * 64, 0), stage=p, barrier=got)
        o = lm.fill(o, 0.0)
        for i in lm.range(0, steps):
            lm.wait(got, stage=i)  # expected-error {{role 'math' uses barrier 'got' at stage 'i', which is not its running count of uses}}
            if i + 4 < steps:
                a_s.cp_async(A, coords=((i + 4) * 64, 0), stage=i + 4, barrier=got)  # expected-note {{'a_s' written here}}
                b_s.cp_async(B, coords=((i + 4) * 64, 0), stage=i + 4, barrier=got)  # expected-note {{'b_s' written here}}
            lm.fence_proxy()
            lm.role_sync()
            lm.mma(o, a_s[i], b_s[i].T)  # expected-error {{role 'math' writes 'a_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}} expected-error {{role 'math' writes 'b_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}}
            lm.mma_commit()
            lm.mma_wait(pending=0)
        o_s.store(lm.cast(o, lm.bf16))
        lm.fence_proxy()
        lm.role_sync()
        o_s.tma_store(O, coords=(0, 0))
        lm.tma_store_wait()
