# Broken variants of pass_fragment_alias_arms.cake: the `if` whose two sides
# access views that share bytes runs in a loop, so one iteration's store
# through one view meets the next iteration's load through the other (and
# that load the store after it) with no role sync on the path through the
# loop's back edge. Also (found by review, helper-50) a view and its alias
# whose slots are other bytes (a bf16 slot is half an f32 one): naming one
# slot per iteration does not keep them apart.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 128], S: LM.i32):
    pool = lm.smem(32768)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        for j in lm.range(0, S):
            if j % 2 == 0:
                h_s.store(lm.cast(v, lm.bf16))  # expected-note {{'h_s' written here}}
            else:
                w = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored through 'h_s', which shares its bytes in the previous iteration; add 'lm.role_sync()' between them}}
                lm.store_tile(Y, coords=(0, 0), src=w)

# -----
# a role sync before the store only: the path from the load round to the
# store passes it, the one from the store round to the load none
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 128], S: LM.i32):
    pool = lm.smem(32768)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        for j in lm.range(0, S):
            if j % 2 == 0:
                lm.role_sync()
                h_s.store(lm.cast(v, lm.bf16))  # expected-note {{'h_s' written here}}
            else:
                w = t_s.load()  # expected-error {{role 'math' loads 't_s' through a register fragment whose layout gives its elements to other threads than the fragment it stored through 'h_s', which shares its bytes in the previous iteration}}
                lm.store_tile(Y, coords=(0, 0), src=w)

# -----
# the load of f32 slot 0 (bytes 0 .. 16383) in one iteration, the store of
# bf16 slot 1 (bytes 8192 .. 16383) in the next
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 128], S: LM.i32):
    pool = lm.smem(65536)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, stage=2)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v, stage=0)
        t_s.store(v, stage=1)
        lm.role_sync()
        for j in lm.range(0, 2):
            if j == 0:
                w = t_s.load(stage=j)  # expected-note {{'t_s' read here}}
                lm.store_tile(Y, coords=(0, 0), src=w)
            else:
                h_s.store(lm.cast(v, lm.bf16), stage=j)  # expected-error {{role 'math' stores 'h_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded through 't_s', which shares its bytes in the previous iteration}}

# -----
# the same in straight-line code in the loop: the sync orders the store
# before the load, nothing orders the load before the next store
@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 128], S: LM.i32):
    pool = lm.smem(65536)
    t_s = pool.view(offset=0, shape=(64, 64), dtype=lm.f32, stage=2)
    h_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, alias=True)
    math = lm.role(warps=[0, 1, 2, 3])
    v = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        t_s.store(v, stage=0)
        t_s.store(v, stage=1)
        lm.role_sync()
        for j in lm.range(0, 2):
            h_s.store(lm.cast(v, lm.bf16), stage=j)  # expected-error {{role 'math' stores 'h_s' through a register fragment whose layout gives its elements to other threads than the fragment it loaded through 't_s', which shares its bytes in the previous iteration}}
            lm.role_sync()
            w = t_s.load(stage=j)  # expected-note {{'t_s' read here}}
            lm.store_tile(Y, coords=(0, 0), src=w)
