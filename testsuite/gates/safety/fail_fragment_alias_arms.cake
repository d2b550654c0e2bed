# Broken variants of pass_fragment_alias_arms.cake: the `if` whose two sides
# access views that share bytes runs in a loop, so one iteration's store
# through one view meets the next iteration's load through the other (and
# that load the store after it) with no role sync on the path through the
# loop's back edge.
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
