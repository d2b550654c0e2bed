# The guarded-wait cycle of fail_circular_wait_guarded.cake through a relay
# role: 'load' waits under `if k == 3:` on 'fin', which 'epi' signals after
# waiting on 'mid' for all 8 k-steps, which 'math' signals after each stage
# of 'full' that 'load' loads only after its wait: a hang at any T >= 1.
# Found by an independent review (an XFAIL until the cycle check followed
# relays: a role that signals a barrier after each wait on another in the
# same loops). Near miss: pass_circular_wait_guarded_relay.cake ('fin' with
# a credit, so the first lap's wait passes).
# Also refused (an independent review of the relay rule): the relay signals
# once after its loop of waits, and under a guard on its loop's last
# iteration.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])
    epi = lm.role(warps=[12, 13, 14, 15])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=8, pipeline=ring)
    mid = lm.barrier(count=1, prod=[math], cons=[epi], init_count=8)
    mide = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    fin = lm.barrier(count=1, prod=[epi], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'epi' signals only later; role 'epi' waits on 'mid', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
                lm.wait(mide, stage=t * 8 + k)
                lm.arrive(mid, stage=t * 8 + k, per="warp")
    with epi:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(mid, stage=t * 8 + k)  # expected-note {{role 'epi' waits on 'mid' here}}
                lm.arrive(mide, stage=t * 8 + k, per="warp")
            lm.arrive(fin, stage=t, per="warp")

# -----
# the relay one step removed: 'epi' signals 'mid2' once after its k loop of waits on 'mid', 'fr' signals 'fin' after waiting on 'mid2'
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    fr = lm.role(warps=[12, 13, 14, 15])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    mid = lm.barrier(count=1, prod=[math], cons=[epi], init_count=4)
    mide = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    mid2 = lm.barrier(count=1, prod=[epi], cons=[fr], init_count=4)
    fin = lm.barrier(count=1, prod=[fr], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'fr' signals only later; role 'fr' waits on 'mid2', which role 'epi' signals only later; role 'epi' waits on 'mid', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
                lm.wait(mide, stage=t * 8 + k)
                lm.arrive(mid, stage=t * 8 + k, per="warp")
    with epi:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(mid, stage=t * 8 + k)  # expected-note {{role 'epi' waits on 'mid' here}}
                lm.arrive(mide, stage=t * 8 + k, per="warp")
            lm.arrive(mid2, stage=t, per="warp")
    with fr:
        for t in lm.range(0, T):
            lm.wait(mid2, stage=t)  # expected-note {{role 'fr' waits on 'mid2' here}}
            lm.arrive(fin, stage=t, per="warp")

# -----
# as the part above, with 'mid2' signalled inside the k loop under 'if k == 7:'
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    fr = lm.role(warps=[12, 13, 14, 15])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    mid = lm.barrier(count=1, prod=[math], cons=[epi], init_count=4)
    mide = lm.barrier(count=1, prod=[epi], cons=[math], init_count=4, credits=1)
    mid2 = lm.barrier(count=1, prod=[epi], cons=[fr], init_count=4)
    fin = lm.barrier(count=1, prod=[fr], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'fr' signals only later; role 'fr' waits on 'mid2', which role 'epi' signals only later; role 'epi' waits on 'mid', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
                lm.wait(mide, stage=t * 8 + k)
                lm.arrive(mid, stage=t * 8 + k, per="warp")
    with epi:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(mid, stage=t * 8 + k)  # expected-note {{role 'epi' waits on 'mid' here}}
                lm.arrive(mide, stage=t * 8 + k, per="warp")
                if k == 7:
                    lm.arrive(mid2, stage=t, per="warp")
    with fr:
        for t in lm.range(0, T):
            lm.wait(mid2, stage=t)  # expected-note {{role 'fr' waits on 'mid2' here}}
            lm.arrive(fin, stage=t, per="warp")

# -----
# the relay's own wait guarded ('epi' waits on 'mid' under 'if k == 7:', 'mid' signalled after all 8 k-steps; a second independent review)
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    fr = lm.role(warps=[12, 13, 14, 15])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    mid = lm.barrier(count=1, prod=[math], cons=[epi], init_count=4)
    mid2 = lm.barrier(count=1, prod=[epi], cons=[fr], init_count=4)
    fin = lm.barrier(count=1, prod=[fr], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'fr' signals only later; role 'fr' waits on 'mid2', which role 'epi' signals only later; role 'epi' waits on 'mid', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            lm.arrive(mid, stage=t, per="warp")
    with epi:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                if k == 7:
                    lm.wait(mid, stage=t)  # expected-note {{role 'epi' waits on 'mid' here}}
            lm.arrive(mid2, stage=t, per="warp")
    with fr:
        for t in lm.range(0, T):
            lm.wait(mid2, stage=t)  # expected-note {{role 'fr' waits on 'mid2' here}}
            lm.arrive(fin, stage=t, per="warp")

# -----
# math signals 'rel' in a loop after its k loop (a sibling loop, not around the wait)
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    rel = lm.barrier(count=1, prod=[math], cons=[epi], init_count=4)
    fin = lm.barrier(count=1, prod=[epi], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'epi' signals only later; role 'epi' waits on 'rel', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            for j in lm.range(0, 1):
                lm.arrive(rel, stage=t + j, per="warp")
    with epi:
        for t in lm.range(0, T):
            lm.wait(rel, stage=t)  # expected-note {{role 'epi' waits on 'rel' here}}
            lm.arrive(fin, stage=t, per="warp")

# -----
# epi waits four times per tile on 'rel', a ring of 2 with credits: the third wait needs math's first release, after all 8 k-steps (in two loops of 2)
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    rel = lm.barrier(count=2, prod=[math], cons=[epi], init_count=4, credits=2)
    fin = lm.barrier(count=1, prod=[epi], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'epi' signals only later; role 'epi' waits on 'rel', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            for j in lm.range(0, 4):
                lm.arrive(rel, stage=t * 4 + j, per="warp")
    with epi:
        for t in lm.range(0, T):
            for j in lm.range(0, 2):
                lm.wait(rel, stage=t * 4 + j)
            for j in lm.range(2, 4):
                lm.wait(rel, stage=t * 4 + j)  # expected-note {{role 'epi' waits on 'rel' here}}
            lm.arrive(fin, stage=t, per="warp")

# -----
# as above, in one loop of 4
@cake.schedule()
def k(lm, B: LM.tma2d, T: LM.i32):
    pool = lm.smem(98304)
    b_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=4, swizzle="128B")
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    epi = lm.role(warps=[8, 9, 10, 11])
    ring = lm.pipeline(stages=4)
    full = lm.barrier(count=4, prod=[load], cons=[math], init_count=1, pipeline=ring)
    empty = lm.barrier(count=4, prod=[math], cons=[load], init_count=4, pipeline=ring)
    rel = lm.barrier(count=2, prod=[math], cons=[epi], init_count=4, credits=2)
    fin = lm.barrier(count=1, prod=[epi], cons=[load], init_count=4)
    with load:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(empty, stage=t * 8 + k)
                if k == 3:
                    lm.wait(fin, stage=t)  # expected-error {{roles wait for each other before either arrives: role 'load' waits on 'fin', which role 'epi' signals only later; role 'epi' waits on 'rel', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}
                b_s.tma_load(B, coords=(k * 64, 0), stage=t * 8 + k, barrier=full)
    with math:
        for t in lm.range(0, T):
            for k in lm.range(0, 8):
                lm.wait(full, stage=t * 8 + k)  # expected-note {{role 'math' waits on 'full' here}}
                x = b_s.load(stage=t * 8 + k)
                lm.arrive(empty, stage=t * 8 + k, per="warp")
            for j in lm.range(0, 4):
                lm.arrive(rel, stage=t * 4 + j, per="warp")
    with epi:
        for t in lm.range(0, T):
            for j in lm.range(0, 4):
                lm.wait(rel, stage=t * 4 + j)  # expected-note {{role 'epi' waits on 'rel' here}}
            lm.arrive(fin, stage=t, per="warp")
