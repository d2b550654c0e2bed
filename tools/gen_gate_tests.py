#!/usr/bin/env python3
"""Writes testsuite/gates/: negative -verify tests for the four gates, each a
small edit of a base schedule (BASE for sm_90a, BW for sm_100a) with the
expected diagnostics in comments, plus passing near-misses. Edit the cases
here and rerun; review the generated files like any other test change."""
import os, re
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "testsuite", "gates")
BASE = """@cake.schedule()
def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")
    c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16)
    load = lm.role(warps=[0, 1, 2, 3])
    math = lm.role(warps=[4, 5, 6, 7])
    acc = lm.regs(shape=(64, 128), dtype=lm.f32, role=math)
    ring = lm.pipeline(stages=2)
    full = lm.barrier(count=2, prod=[load], cons=[math], pipeline=ring)
    empty = lm.barrier(count=2, prod=[math], cons=[load], pipeline=ring)
    with load:
        for k in lm.range(0, K // 64):
            lm.wait(empty, stage=k)
            a_s.tma_load(A, coords=(k * 64, 0), stage=k, barrier=full)
            b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)
    with math:
        for k in lm.range(0, K // 64):
            lm.wait(full, stage=k)
            lm.mma(acc, a_s[k], b_s[k].T, init=(k == 0))
            lm.mma_commit()
            lm.mma_wait(pending=0)
            lm.arrive(empty, stage=k)
        out = lm.cast(acc, lm.bf16)
        c_s.store(out)
        lm.fence_proxy()
        lm.role_sync()
        c_s.tma_store(C, coords=(0, 0))
        lm.tma_store_wait()
"""
BW = """@cake.schedule()
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
"""
tests = []
def neg(name, purpose, edits, base=BASE, target="sm_90a", flags=""):
    tests.append((name, purpose, edits, base, target, flags))

def apply(base, edits):
    lines = base.rstrip("\n").split("\n")
    # edits: list of (op, anchor_substring, text). ops: 'replace' whole line containing anchor,
    # 'after' insert after the line, 'before', 'delete', 'sub' (regex sub in that line: text=(pat, repl)), 'append'
    for op, anchor, text in edits:
        if op == "append":
            lines.extend(text.split("\n")); continue
        if op == "suball":
            lines = "\n".join(lines).replace(anchor, text).split("\n"); continue
        idx = [i for i, l in enumerate(lines) if anchor in l]
        assert idx, (anchor,)
        i = idx[0]
        indent = re.match(r"\s*", lines[i]).group(0)
        if op == "replace": lines[i] = text if text.startswith(" ") or text.startswith("@") or text.startswith("def") else indent + text
        elif op == "after": lines.insert(i + 1, text if text.startswith(" ") else indent + text)
        elif op == "before": lines.insert(i, text if text.startswith(" ") else indent + text)
        elif op == "delete": del lines[i]
        elif op == "comment": lines[i] = lines[i] + "  # " + text
        elif op == "sub": lines[i] = lines[i].replace(text[0], text[1])
    return "\n".join(lines) + "\n"

E = lambda s: s  # readability

# ---- schedule semantics
neg("overlapping_roles", "Two roles claiming the same warp.", [
  ("replace", "load = lm.role", "load = lm.role(warps=[0, 1, 2, 4])  # expected-note {{role 'load' declared here}}"),
  ("comment", "math = lm.role", "expected-error {{warp 4 belongs to both role 'load' and role 'math'}}"),
  ("comment", "def k(", "expected-warning {{warp(s) 3 of the 256-thread block belong to no role}}")])
neg("idle_warps", "Warps of the block that no role plays are reported.", [
  ("replace", "load = lm.role", "load = lm.role(warps=[0])"),
  ("comment", "def k(", "expected-warning {{warp(s) 1, 2, 3 of the 256-thread block belong to no role}}")])
neg("duplicate_role_block", "A role with two 'with' blocks.", [
  ("comment", "with load:", "expected-note {{first block of role 'load' is here}}"),
  ("append", "", "    with load:  # expected-error {{role 'load' has a second 'with' block; a role's work goes in one block}}\n        lm.role_sync()")])
neg("producer_never_arrives", "A declared producer that never arrives.", [
  ("replace", "full = lm.barrier", "full = lm.barrier(count=2, prod=[load, math], cons=[math], pipeline=ring)  # expected-error {{role 'math' is declared a producer of barrier 'full' but never arrives on it}}"),
  ("comment", "math = lm.role", "expected-note {{role 'math' declared here}}")])
neg("consumer_never_waits", "A declared consumer that never waits.", [
  ("replace", "empty = lm.barrier", "empty = lm.barrier(count=2, prod=[math], cons=[load, math], pipeline=ring)  # expected-error {{role 'math' is declared a consumer of barrier 'empty' but never waits on it}}"),
  ("comment", "math = lm.role", "expected-note {{role 'math' declared here}}")])
neg("undeclared_producer", "A role arriving on a barrier it does not produce.", [
  ("comment", "full = lm.barrier", "expected-note {{barrier 'full' declared here}} expected-error {{barrier 'full' completes a phase after 1 arrival(s) (init_count=1) but receives 2 per phase}}"),
  ("after", "lm.arrive(empty, stage=k)", "lm.arrive(full, stage=k)  # expected-error {{role 'math' arrives on barrier 'full' but is not among its producers ['load']}}"),
  ("comment", "lm.wait(full", "expected-error {{roles wait for each other before either arrives: role 'math' waits on 'full', which it signals only later}}")])
neg("undeclared_consumer", "A role waiting on a barrier it does not consume (here, its own: a self-deadlock).", [
  ("comment", "full = lm.barrier", "expected-note {{barrier 'full' declared here}}"),
  ("after", "lm.wait(empty, stage=k)", "lm.wait(full, stage=k)  # expected-error {{role 'load' waits on barrier 'full' but is not among its consumers ['math']}} expected-error {{roles wait for each other before either arrives: role 'load' waits on 'full', which it signals only later}}")])
neg("pipeline_stage_mismatch", "Barriers whose count disagrees with their pipeline.", [
  ("replace", "ring = lm.pipeline", "ring = lm.pipeline(stages=3)  # expected-note 2 {{'ring' declared here}}"),
  ("comment", "full = lm.barrier", "expected-error {{barrier 'full' has 2 stages but its pipeline 'ring' has 3}}"),
  ("comment", "empty = lm.barrier", "expected-error {{barrier 'empty' has 2 stages but its pipeline 'ring' has 3}}")])
neg("view_stage_mismatch", "A staged view filled through a barrier with a different number of stages.", [
  ("replace", "ring = lm.pipeline", "ring = lm.pipeline(stages=3)"),
  ("replace", "full = lm.barrier", "full = lm.barrier(count=3, prod=[load], cons=[math], pipeline=ring)  # expected-note 2 {{barrier 'full' declared here}}"),
  ("replace", "empty = lm.barrier", "empty = lm.barrier(count=3, prod=[math], cons=[load], pipeline=ring)"),
  ("comment", "a_s.tma_load", "expected-error {{view 'a_s' has 2 stages but barrier 'full' has 3}}"),
  ("comment", "b_s.tma_load", "expected-error {{view 'b_s' has 2 stages but barrier 'full' has 3}}")])
neg("unused", "Declarations nothing uses.", [
  ("after", "ring = lm.pipeline", "spare = lm.pipeline(stages=2)  # expected-warning {{pipeline 'spare' is declared but never used}}"),
  ("after", "acc = lm.regs", "tmp = lm.regs(shape=(8, 8), dtype=lm.f32)  # expected-warning {{regs 'tmp' is declared but never used}}"),
  ("replace", "def k(", "def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, D: LM.tma1d, K: LM.i32):  # expected-warning {{tensor 'D' is declared but never used}}")])

# ---- hardware compliance
neg("unsupported_operation", "An operation the exact target does not have, named with the targets that do.", [], base="""@cake.schedule()
def k(lm):
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        lm.commit(b, stage=0)  # expected-error {{'lm.commit' is not available on sm_90a; it exists on sm_100a, sm_103a}}
        lm.wait(b, stage=0)
""")
neg("unsupported_on_sm80", "TMA, cluster ranks and register budgets do not exist on sm_80.", [], base="""@cake.schedule()
def k(lm, A: LM.tma1d):
    pool = lm.smem(1024)
    v = pool.view(offset=0, shape=(64,), dtype=lm.f32)
    r = lm.role(warps=[0], regs=40)  # expected-error {{'setmaxnreg (a role's regs=)' is not available on sm_80; it exists on sm_90a, sm_100a, sm_103a}}
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        v.tma_load(A, coords=(lm.cluster_rank(),), barrier=b)  # expected-error {{'lm.tma_load' is not available on sm_80; it exists on sm_90a, sm_100a, sm_103a, sm_120a, sm_121a}} expected-error {{'lm.cluster_rank' is not available on sm_80}}
        lm.wait(b, stage=0)
""", target="sm_80")
neg("setmaxnreg_value", "Register budgets outside setmaxnreg's range or not a multiple of 8.", [
  ("replace", "load = lm.role", "load = lm.role(warps=[0, 1, 2, 3], regs=20)  # expected-error {{register budget 20 of role 'load' must be a multiple of 8 between 24 and 256}}"),
  ("replace", "math = lm.role", "math = lm.role(warps=[4, 5, 6, 7], regs=250)  # expected-error {{register budget 250 of role 'math' must be a multiple of 8 between 24 and 256}}")])
neg("register_file", "Register budgets that together exceed the register file.", [], base="""@cake.schedule()
def k(lm):
    big = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7], regs=256)
    more = lm.role(warps=[8, 9, 10, 11], regs=256)
    with big:
        lm.role_sync()
    with more:
        lm.role_sync()
""".replace("def k(lm):", "def k(lm):  # expected-error {{register budgets need 98304 registers per block (256 x 256 threads for 'big' + 256 x 128 threads for 'more'); an SM has 65536}}"))
neg("smem_limit", "More shared memory than the target allows.", [
  ("replace", "def k(", "def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):  # expected-error {{kernel 'k' needs 240032 bytes of shared memory (240000 B of pools and 32 B of mbarriers, with alignment); sm_90a allows 232448 per block}}"),
  ("replace", "pool = lm.smem", "pool = lm.smem(240000)")])
neg("smem_limit_sm120a", "The same kernel fits sm_90a but not sm_120a's smaller shared memory.", [
  ("replace", "def k(", "def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):  # expected-error {{needs 131104 bytes of shared memory}}"),
  ("replace", "pool = lm.smem", "pool = lm.smem(131072)"),
  ("comment", "lm.mma_commit()", "expected-error {{'lm.mma_commit' is not available on sm_120a; it exists on sm_90a}}"),
  ("comment", "lm.mma_wait(", "expected-error {{'lm.mma_wait' is not available on sm_120a}}"),
  ], target="sm_120a")
neg("tmem_columns", "A TMEM region past the 512 columns of an SM.", [
  ("replace", "acc = lm.tmem", "acc = lm.tmem(cols=448, width=128, shape=(128, 128), dtype=lm.f32)  # expected-error {{the TMEM region 'acc' ends at column 576; an SM has 512 columns}}")], base=BW, target="sm_100a")
neg("threads_limit", "A warp index that makes the block larger than 1024 threads.", [], base="""@cake.schedule()
def k(lm):
    r = lm.role(warps=[0, 32])  # expected-error {{role 'r' uses warp 32, making a block of 1056 threads; the limit is 1024}}
    with r:
        lm.role_sync()
""")
neg("mma_k_step", "wgmma K must be a multiple of 16 for bf16.", [
  ("replace", "a_s = pool.view", 'a_s = pool.view(offset=0, shape=(64, 40), dtype=lm.bf16, stage=2, swizzle="128B")'),
  ("replace", "b_s = pool.view", 'b_s = pool.view(offset=16384, shape=(128, 40), dtype=lm.bf16, stage=2, swizzle="128B")'),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' on sm_90a: K = 40 must be a multiple of 16 for bf16}}")])
neg("mma_m_per_warpgroup", "wgmma splits the accumulator's rows over the role's warpgroups in blocks of 64.", [
  ("replace", "acc = lm.regs", "acc = lm.regs(shape=(96, 128), dtype=lm.f32, role=math)"),
  ("replace", "a_s = pool.view", 'a_s = pool.view(offset=0, shape=(96, 64), dtype=lm.bf16, stage=2, swizzle="128B")'),
  ("replace", "b_s = pool.view", 'b_s = pool.view(offset=24576, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")'),
  ("replace", "c_s = pool.view", "c_s = pool.view(offset=57344, shape=(96, 128), dtype=lm.bf16)"),
  ("replace", "pool = lm.smem", "pool = lm.smem(81920)"),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' on sm_90a: the accumulator has 96 rows, not a multiple of 64 per warpgroup of role 'math' (1 warpgroup(s))}}"),
  ])
neg("mma_dtype", "wgmma accumulates bf16 products in f32 (or f16), not bf16.", [
  ("replace", "acc = lm.regs", "acc = lm.regs(shape=(64, 128), dtype=lm.bf16, role=math)"),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' on sm_90a takes bf16/f16 operands with an f32 (or f16) accumulator, fp8 with f32, or i8 with i32, not bf16 operands with a bf16 accumulator}}")])
neg("mma_accumulator_bw", "On Blackwell the accumulator lives in tensor memory.", [
  ("replace", "acc = lm.tmem", "acc = lm.regs(shape=(128, 128), dtype=lm.f32)"),
  ("comment", "lm.mma(acc", "expected-error {{on sm_100a the accumulator of 'lm.mma' must be a TMEM region (lm.tmem); 'acc' is a register fragment}}")], base=BW, target="sm_100a")
neg("mma_shape_bw", "tcgen05.mma takes M of 64 or 128.", [
  ("replace", "acc = lm.tmem", "acc = lm.tmem(cols=0, width=128, shape=(96, 128), dtype=lm.f32)"),
  ("replace", "a = pool.view", "a = pool.view(offset=0, shape=(96, 64), dtype=lm.bf16, stage=2)"),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' on sm_100a: M = 96 must be 64 or 128}}")], base=BW, target="sm_100a")
neg("warpgroup_alignment", "wgmma needs whole warpgroups starting at a multiple of 4.", [
  ("replace", "load = lm.role", "load = lm.role(warps=[0])"),
  ("replace", "math = lm.role", "math = lm.role(warps=[1, 2, 3, 4])  # expected-note {{role 'math' declared here}}"),
  ("comment", "lm.mma(acc", "expected-error {{role 'math' issues wgmma but its warps [1, 2, 3, 4] are not whole warpgroups starting at a multiple of 4}}")])
neg("tma_box", "A TMA box dimension above 256.", [], base="""@cake.schedule()
def k(lm, A: LM.tma2d):
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(2, 300), dtype=lm.bf16)  # expected-error {{the TMA box of 'v' is 300 along dimension 1; the limit is 256}} expected-error {{the inner TMA box dimension of 'v' is 600 bytes; it must be a multiple of 16}}
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        v.tma_load(A, coords=(0, 0), barrier=b)
        lm.wait(b, stage=0)
""")
neg("tma_inner_box", "Swizzled rows wider than the swizzle span must be whole panels of it.", [
  ("replace", "c_s = pool.view", 'c_s = pool.view(offset=49152, shape=(64, 96), dtype=lm.bf16, swizzle="128B")  # expected-error {{the inner TMA box dimension of \'c_s\' is 192 bytes; with swizzle 128B it must be at most 128 or a multiple of it (panels of 128 bytes)}})'),
  ("comment", "c_s.store(out)", "expected-error {{'c_s.store' copies 'out' (64x128 bf16) into 'c_s' (64x96 bf16)}}")])
neg("alignment_offset", "A 128-byte swizzled view must start on a 1024-byte boundary.", [
  ("replace", "c_s = pool.view", 'c_s = pool.view(offset=49664, shape=(64, 128), dtype=lm.bf16, swizzle="128B")  # expected-error {{\'c_s\' is used by TMA and must be 1024-byte aligned, but it starts at byte 49664 of shared memory}}'),
  ("replace", "pool = lm.smem", "pool = lm.smem(66048)")])
neg("alignment_stride", "Stages of a swizzled ring must keep the alignment.", [
  ("replace", "a_s = pool.view", 'a_s = pool.view(offset=0, shape=(4, 64), dtype=lm.bf16, stage=2, swizzle="128B")  # expected-error {{\'a_s\' is used by TMA and the tensor core and must be 1024-byte aligned, but its stages are 512 bytes apart}}'),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' shapes disagree: the product is 4x128 but the accumulator 'acc' is 64x128}}")])

# ---- data consistency
neg("view_overflow", "A view running past the end of its pool.", [
  ("replace", "pool = lm.smem", "pool = lm.smem(65536)  # expected-note {{'pool' declared here}}"),
  ("replace", "c_s = pool.view", "c_s = pool.view(offset=57344, shape=(64, 128), dtype=lm.bf16)  # expected-error {{view 'c_s' spans bytes [57344, 73728) of pool 'pool', which has 65536 bytes}}")])
neg("view_overlap", "Two views sharing bytes without alias=True.", [
  ("comment", "b_s = pool.view", "expected-note {{'b_s' declared here}}"),
  ("replace", "c_s = pool.view", "c_s = pool.view(offset=40960, shape=(64, 128), dtype=lm.bf16)  # expected-error {{views 'b_s' and 'c_s' overlap in pool 'pool' at bytes [40960, 49152); declare one with alias=True if that is intended}}")])
neg("swizzle_mismatch", "An alias reading, unswizzled, bytes that TMA wrote swizzled.", [
  ("comment", "a_s = pool.view", "expected-note {{'a_s' declared here}}"),
  ("after", "c_s = pool.view", "a_raw = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, alias=True)  # expected-error {{'a_s' (swizzle 128B) and its alias 'a_raw' (swizzle none) describe the same bytes differently; data written through one is read through the other}}"),
  ("sub", "lm.mma(acc", ("a_s[k]", "a_raw[k]"))])
neg("tmem_overlap", "Two TMEM regions sharing columns.", [
  ("comment", "acc = lm.tmem", "expected-note {{'acc' declared here}}"),
  ("after", "acc = lm.tmem", "acc2 = lm.tmem(cols=64, width=128, shape=(128, 128), dtype=lm.f32)  # expected-error {{the TMEM regions 'acc' and 'acc2' overlap at columns [64, 128)}}"),
  ("after", "lm.mma(acc", "lm.mma(acc2, a[s], b[s], init=(s == 0))")], base=BW, target="sm_100a")
neg("tmem_shape", "A TMEM region too narrow for its shape.", [
  ("replace", "acc = lm.tmem", "acc = lm.tmem(cols=0, width=64, shape=(128, 128), dtype=lm.f32)  # expected-error {{the TMEM region 'acc' holds 128x128 f32 but that needs 128 columns and the region is 64 wide}}")], base=BW, target="sm_100a")
neg("tma_rank", "Coordinates that do not match the tensor's rank.", [
  ("replace", "def k(", "def k(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, K: LM.i32):  # expected-note {{'A' declared here}}"),
  ("sub", "a_s.tma_load", ("coords=(k * 64, 0)", "coords=(k * 64, 0, 0)")),
  ("comment", "a_s.tma_load", "expected-error {{tensor 'A' has rank 2 but the copy gives 3 coordinate(s)}}")])
neg("tma_box_rank", "A box of higher rank than its tensor.", [], base="""@cake.schedule()
def k(lm, A: LM.tma1d):  # expected-note {{'A' declared here}}
    pool = lm.smem(4096)
    v = pool.view(offset=0, shape=(8, 64), dtype=lm.bf16)
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])
    with r:
        v.tma_load(A, coords=(0,), barrier=b)  # expected-error {{tensor 'A' has rank 1 but the box 'v' has rank 2}}
        lm.wait(b, stage=0)
""")
neg("mma_untransposed", "B given as (N, K) without '.T'.", [
  ("sub", "lm.mma(acc", ("b_s[k].T", "b_s[k]")),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' shapes disagree: 'a_s' is 64x64 so K = 64, but 'b_s' is 128x64 so K = 128; did you mean to transpose it with '.T'?}}")])
neg("mma_accumulator_shape", "An accumulator of the wrong shape for the product.", [
  ("replace", "acc = lm.regs", "acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)"),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' shapes disagree: the product is 64x128 but the accumulator 'acc' is 64x64}}"),
  ("comment", "c_s.store(out)", "expected-error {{'c_s.store' copies 'out' (64x64 bf16) into 'c_s' (64x128 bf16)}}")])
neg("mma_operand_dtype", "A and B of different dtypes.", [
  ("replace", "b_s = pool.view", 'b_s = pool.view(offset=16384, shape=(128, 64), dtype=lm.f16, stage=2, swizzle="128B")'),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' operands disagree: 'a_s' is bf16 but 'b_s' is f16}}")])
neg("store_dtype", "A fragment stored into a view of another dtype.", [
  ("sub", "out = lm.cast", ("lm.bf16", "lm.f16")),
  ("comment", "c_s.store(out)", "expected-error {{'c_s.store' copies 'out' (64x128 f16) into 'c_s' (64x128 bf16)}}")])

# ---- program safety
neg("read_before_wait", "Reading a stage before waiting for the copy that fills it.", [
  ("comment", "full = lm.barrier", "expected-note 2 {{barrier 'full' declared here}} expected-error {{role 'math' is declared a consumer of barrier 'full' but never waits on it}}"),
  ("comment", "math = lm.role", "expected-note {{role 'math' declared here}}"),
  ("delete", "lm.wait(full, stage=k)", None),
  ("comment", "lm.mma(acc", "expected-error {{role 'math' reads stage k of 'a_s' but never waits on barrier 'full' for that stage}} expected-error {{role 'math' reads stage k of 'b_s' but never waits on barrier 'full' for that stage}}")])
neg("read_wrong_stage", "Waiting for one stage and reading another.", [
  ("comment", "full = lm.barrier", "expected-note 3 {{barrier 'full' declared here}}"),
  ("sub", "lm.wait(full, stage=k)", ("stage=k", "stage=k + 1")),
  ("comment", "lm.wait(full", "expected-error {{role 'math' uses barrier 'full' at stage 'k + 1', which is not its running count of uses (0, 1, 2, ...): its first value is 1, but the next stage of the sequence is 0}}"),
  ("comment", "lm.mma(acc", "expected-error {{reads stage k of 'a_s'}} expected-error {{reads stage k of 'b_s'}}")])
neg("stage_sequence_start", "A ring's stages must run 0, 1, 2, ...: a loop from 1 starts mid-sequence.", [
  ("comment", "full = lm.barrier", "expected-note 2 {{barrier 'full' declared here}}"),
  ("comment", "empty = lm.barrier", "expected-note 2 {{barrier 'empty' declared here}}"),
  ("suball", "lm.range(0, K // 64)", "lm.range(1, K // 64)"),
  ("comment", "lm.wait(empty", "expected-error {{role 'load' uses barrier 'empty' at stage 'k', which is not its running count of uses (0, 1, 2, ...): its first value is 1, but the next stage of the sequence is 0}}"),
  ("comment", "a_s.tma_load", "expected-error {{role 'load' uses barrier 'full' at stage 'k'}}"),
  ("comment", "lm.wait(full", "expected-error {{role 'math' uses barrier 'full' at stage 'k'}}"),
  ("comment", "lm.arrive(empty", "expected-error {{role 'math' uses barrier 'empty' at stage 'k'}}")])
neg("stage_sequence_step", "A loop stepping by 2 skips stages (and phases).", [
  ("comment", "full = lm.barrier", "expected-note 2 {{barrier 'full' declared here}}"),
  ("comment", "empty = lm.barrier", "expected-note 2 {{barrier 'empty' declared here}}"),
  ("suball", "lm.range(0, K // 64)", "lm.range(0, K // 64, 2)"),
  ("comment", "lm.wait(empty", "expected-error {{role 'load' uses barrier 'empty' at stage 'k', which is not its running count of uses (0, 1, 2, ...): the loop over 'k' steps by 2, so stages are skipped}}"),
  ("comment", "a_s.tma_load", "expected-error {{the loop over 'k' steps by 2}}"),
  ("comment", "lm.wait(full", "expected-error {{the loop over 'k' steps by 2}}"),
  ("comment", "lm.arrive(empty", "expected-error {{the loop over 'k' steps by 2}}")])
neg("read_after_loop", "A wait inside the loop does not cover a read after it.", [
  ("comment", "full = lm.barrier", "expected-note 2 {{barrier 'full' declared here}}"),
  ("before", "out = lm.cast", "lm.mma(acc, a_s[0], b_s[0].T)  # expected-error {{role 'math' reads stage 0 of 'a_s' but never waits on barrier 'full' for that stage}} expected-error {{reads stage 0 of 'b_s'}}"),
  ])
neg("wait_never_satisfied", "A barrier nobody arrives on.", [
  ("after", "empty = lm.barrier", "done = lm.barrier(count=1, prod=[load], cons=[math])  # expected-error {{role 'load' is declared a producer of barrier 'done' but never arrives on it}} expected-note {{barrier 'done' declared here}}"),
  ("comment", "load = lm.role", "expected-note {{role 'load' declared here}}"),
  ("before", "out = lm.cast", "lm.wait(done, stage=0)  # expected-error {{role 'math' waits on barrier 'done', but no role ever arrives on it}}")])
neg("arrival_count", "init_count that disagrees with the arrivals a phase really gets.", [
  ("replace", "empty = lm.barrier", "empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=2, pipeline=ring)  # expected-error {{barrier 'empty' completes a phase after 2 arrival(s) (init_count=2) but receives 1 per phase: role 'math' gives 1 (1 from 'arrive' per role)}}")])
neg("arrival_count_per_warp", "Per-warp arrivals counted: four warps arrive four times.", [
  ("comment", "empty = lm.barrier", "expected-error {{barrier 'empty' completes a phase after 1 arrival(s) (init_count=1) but receives 4 per phase: role 'math' gives 4 (4 from 'arrive' per warp)}}"),
  ("sub", "lm.arrive(empty", ("stage=k)", "stage=k, per=\"warp\")"))])
neg("arrival_count_tx", "TMA copies on one barrier share one arrive.expect_tx, so init_count 2 never completes.", [
  ("replace", "full = lm.barrier", "full = lm.barrier(count=2, prod=[load], cons=[math], init_count=2, pipeline=ring)  # expected-error {{receives 1 per phase: role 'load' gives 1 (1 arrive.expect_tx for its TMA copies)}}")])
neg("trip_count_mismatch", "A producer loop and a consumer loop of different constant lengths.", [
  ("sub", "for k in lm.range(0, K // 64):", ("K // 64", "8")),
  ("suball", "        for k in lm.range(0, K // 64):\n            lm.wait(full", "        for k in lm.range(0, 4):\n            lm.wait(full"),
  ("comment", "lm.wait(empty", "expected-error {{barrier 'empty': role 'math' signals it 4 time(s) but role 'load' waits on it 8 time(s)}}"),
  ("comment", "a_s.tma_load", "expected-note {{role 'load' signals 'full' here}}"),
  ("comment", "lm.wait(full", "expected-error {{barrier 'full': role 'load' signals it 8 time(s) but role 'math' waits on it 4 time(s)}}"),
  ("comment", "lm.arrive(empty", "expected-note {{role 'math' signals 'empty' here}}"),
  ])
neg("unproven_trip_count", "Loop bounds the compiler cannot relate: a warning, never silence.", [
  ("sub", "for k in lm.range(0, K // 64):", ("K // 64", "K // 32")),
  ("comment", "lm.wait(full", "expected-warning {{cannot prove that barrier 'full' is signalled as often as it is awaited: role 'load' signals it in range(0, K//32, 1) and role 'math' waits on it in range(0, K//64, 1)}}"),
  ("comment", "lm.wait(empty", "expected-warning {{cannot prove that barrier 'empty' is signalled as often as it is awaited}}")])
neg("unproven_stage", "A data-dependent stage index.", [
  ("sub", "lm.wait(empty", ("stage=k", "stage=lm.block_id(0)")),
  ("comment", "lm.wait(empty", "expected-warning {{cannot prove which stage 'lm.block_id(0)' names; stage indices should be a loop variable plus a constant}}"),
  ("comment", "a_s = pool.view", "expected-note {{'a_s' declared here}}"),
  ("comment", "b_s = pool.view", "expected-note {{'b_s' declared here}}"),
  ("comment", "a_s.tma_load", "expected-error {{role 'load' overwrites stage k of 'a_s' when the ring wraps but never waits for role 'math' to release it}}"),
  ("comment", "b_s.tma_load", "expected-error {{role 'load' overwrites stage k of 'b_s'}}"),
  ])
neg("circular_wait", "Without the pipeline link, 'empty' is an ordinary barrier: both roles wait first.", [
  ("replace", "full = lm.barrier", "full = lm.barrier(count=2, prod=[load], cons=[math])"),
  ("replace", "empty = lm.barrier", "empty = lm.barrier(count=2, prod=[math], cons=[load])"),
  ("replace", "ring = lm.pipeline", "pass"),
  ("comment", "lm.wait(empty", "expected-error {{roles wait for each other before either arrives: role 'load' waits on 'empty', which role 'math' signals only later; role 'math' waits on 'full', which role 'load' signals only later}}"),
  ("comment", "lm.wait(full", "expected-note {{role 'math' waits on 'full' here}}")])
neg("ring_reuse", "A producer that wraps its ring without waiting for the release.", [
  ("comment", "empty = lm.barrier", "expected-error {{role 'load' is declared a consumer of barrier 'empty' but never waits on it}}"),
  ("comment", "load = lm.role", "expected-note {{role 'load' declared here}}"),
  ("comment", "a_s = pool.view", "expected-note {{'a_s' declared here}}"),
  ("comment", "b_s = pool.view", "expected-note {{'b_s' declared here}}"),
  ("delete", "lm.wait(empty, stage=k)", None),
  ("comment", "a_s.tma_load", "expected-error {{role 'load' overwrites stage k of 'a_s' when the ring wraps but never waits for role 'math' to release it}}"),
  ("comment", "b_s.tma_load", "expected-error {{role 'load' overwrites stage k of 'b_s'}}")])
neg("missing_proxy_fence", "Generic stores read by a TMA store without a proxy fence.", [
  ("comment", "c_s.store(out)", "expected-note {{'c_s' written here}}"),
  ("delete", "lm.fence_proxy()", None),
  ("comment", "c_s.tma_store", "expected-error {{role 'math' writes 'c_s' with generic-proxy stores, then reads it through the async proxy ('tma_store') without 'lm.fence_proxy()' in between}}")])
neg("missing_role_sync", "One elected thread issuing the TMA store before the others' stores are done.", [
  ("comment", "c_s.store(out)", "expected-note {{'c_s' written here}}"),
  ("delete", "lm.role_sync()", None),
  ("comment", "c_s.tma_store", "expected-error {{one elected thread of role 'math' reads 'c_s' ('tma_store') right after all its threads wrote it; add 'lm.role_sync()' after the fence}}")])
neg("tx_bytes", "More transaction bytes per phase than an mbarrier can count.", [], base="""@cake.schedule()
def k(lm, A: LM.tma2d):  # expected-error {{needs 1310728 bytes of shared memory}}
    pool = lm.smem(1310720)
    v = pool.view(offset=0, shape=(5, 256, 256), dtype=lm.f32)
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r])  # expected-error {{barrier 'b' expects 1310720 transaction bytes per phase; the mbarrier limit is 1048575}}
    with r:
        v.tma_load(A, coords=(0, 0), barrier=b)  # expected-error {{tensor 'A' has rank 2 but the box 'v' has rank 3}} expected-note {{'A' declared here}}
        lm.wait(b, stage=0)
""".replace("def k(lm, A: LM.tma2d):  # expected-error {{needs 1310728 bytes of shared memory}}", "def k(lm, A: LM.tma2d):  # expected-error {{needs 1310728 bytes of shared memory}} expected-note {{'A' declared here}}").replace("  # expected-error {{tensor 'A' has rank 2 but the box 'v' has rank 3}} expected-note {{'A' declared here}}", "  # expected-error {{tensor 'A' has rank 2 but the box 'v' has rank 3}}"))
neg("unproven_tx_bytes", "A conditional copy makes the bytes per phase unknowable: a warning.", [
  ("comment", "full = lm.barrier", "expected-warning {{cannot derive the transaction bytes of barrier 'full': a copy completing on it is conditional}} expected-warning {{cannot prove that barrier 'full' gets 1 arrival(s) per phase: an arrival on it is conditional}}"),
  ("replace", "b_s.tma_load", "if k > 0:\n                b_s.tma_load(B, coords=(k * 64, 0), stage=k, barrier=full)")])


neg("arrival_count_per_thread", "Per-thread arrivals: 128 threads arrive on a barrier expecting 1.", [
  ("comment", "empty = lm.barrier", "expected-error {{receives 128 per phase: role 'math' gives 128 (128 from 'arrive' per thread)}}"),
  ("sub", "lm.arrive(empty", ("stage=k)", "stage=k, per=\"thread\")"))])
neg("ring_reuse_wrong_stage", "Waiting for the release of another stage than the one overwritten.", [
  ("comment", "a_s = pool.view", "expected-note {{'a_s' declared here}}"),
  ("comment", "b_s = pool.view", "expected-note {{'b_s' declared here}}"),
  ("sub", "lm.wait(empty", ("stage=k", "stage=k + 1")),
  ("comment", "lm.wait(empty", "expected-error {{role 'load' uses barrier 'empty' at stage 'k + 1', which is not its running count of uses (0, 1, 2, ...): its first value is 1, but the next stage of the sequence is 0}}"),
  ("comment", "empty = lm.barrier", "expected-note {{barrier 'empty' declared here}}"),
  ("comment", "a_s.tma_load", "expected-error {{role 'load' overwrites stage k of 'a_s' when the ring wraps but never waits for role 'math' to release it}}"),
  ("comment", "b_s.tma_load", "expected-error {{role 'load' overwrites stage k of 'b_s'}}")])
neg("missing_proxy_fence_mma", "Generic stores into an operand the tensor core then reads.", [
  ("after", "acc = lm.regs", "frag = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)"),
  ("after", "lm.wait(full, stage=k)", "a_s.store(frag, stage=k)  # expected-note {{'a_s' written here}}"),
  ("comment", "lm.mma(acc", "expected-error {{role 'math' writes 'a_s' with generic-proxy stores, then reads it through the async proxy ('mma') without 'lm.fence_proxy()' in between}}")])
neg("tmem_on_hopper", "Tensor memory does not exist on sm_90a.", [], base="""@cake.schedule()
def k(lm):
    acc = lm.tmem(cols=0, width=64, shape=(128, 64), dtype=lm.f32)  # expected-error {{'lm.tmem' is not available on sm_90a; it exists on sm_100a, sm_103a}} expected-warning {{tmem 'acc' is declared but never used}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
""")
neg("smem_limit_sm80", "A Hopper-sized pool is too big for sm_80.", [], base="""@cake.schedule()
def k(lm):  # expected-error {{kernel 'k' needs 200000 bytes of shared memory (200000 B of pools and 0 B of mbarriers, with alignment); sm_80 allows 166912 per block}}
    pool = lm.smem(200000)
    v = pool.view(offset=0, shape=(16,), dtype=lm.f32)
    r = lm.role(warps=[0])
    frag = lm.regs(shape=(16,), dtype=lm.f32, role=r)
    with r:
        v.store(frag)
""", target="sm_80")
neg("circular_wait_three_roles", "Three roles each waiting on the next before signalling.", [], base="""@cake.schedule()
def k(lm):
    a = lm.role(warps=[0])
    b = lm.role(warps=[1])
    c = lm.role(warps=[2])
    ab = lm.barrier(count=1, prod=[a], cons=[b])
    bc = lm.barrier(count=1, prod=[b], cons=[c])
    ca = lm.barrier(count=1, prod=[c], cons=[a])
    with a:
        lm.wait(ca, stage=0)  # expected-error {{roles wait for each other before either arrives: role 'a' waits on 'ca', which role 'c' signals only later; role 'c' waits on 'bc', which role 'b' signals only later; role 'b' waits on 'ab', which role 'a' signals only later}}
        lm.arrive(ab, stage=0)
    with b:
        lm.wait(ab, stage=0)  # expected-note {{role 'b' waits on 'ab' here}}
        lm.arrive(bc, stage=0)
    with c:
        lm.wait(bc, stage=0)  # expected-note {{role 'c' waits on 'bc' here}}
        lm.arrive(ca, stage=0)
""")
neg("tma_box_bw", "Blackwell's TMA has the same 256-element box limit.", [
  ("replace", "b = pool.view", "b = pool.view(offset=32768, shape=(64, 384), dtype=lm.bf16, stage=2)  # expected-error {{the TMA box of 'b' is 384 along dimension 1; the limit is 256}} expected-error {{view 'b' spans bytes [32768, 131072) of pool 'pool', which has 65536 bytes}}"),
  ("comment", "pool = lm.smem", "expected-note {{'pool' declared here}}"),
  ("comment", "lm.mma(acc", "expected-error {{'lm.mma' shapes disagree: the product is 128x384 but the accumulator 'acc' is 128x128}}")], base=BW, target="sm_100a")
neg("undeclared_consumer_epilogue", "An epilogue role waiting on a barrier declared for another role.", [], base="""@cake.schedule()
def k(lm):
    a = lm.role(warps=[0])
    b = lm.role(warps=[1])
    epi = lm.role(warps=[2])
    done = lm.barrier(count=1, prod=[a], cons=[b])  # expected-note {{barrier 'done' declared here}}
    with a:
        lm.arrive(done, stage=0)
    with b:
        lm.wait(done, stage=0)
    with epi:
        lm.wait(done, stage=0)  # expected-error {{role 'epi' waits on barrier 'done' but is not among its consumers ['b']}}
""")

neg("read_via_alias", "Reading TMA-filled bytes through an alias, without waiting for them.", [
  ("comment", "full = lm.barrier", "expected-note {{barrier 'full' declared here}}"),
  ("after", "c_s = pool.view", 'a_raw = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2, swizzle="128B", alias=True)'),
  ("after", "math = lm.role", "peek = lm.role(warps=[8])"),
  ("append", "", "    with peek:\n        a_raw.tma_store(C, coords=(0, 0), stage=0)  # expected-error {{role 'peek' reads stage 0 of 'a_raw' but never waits on barrier 'full' for that stage}}\n        lm.tma_store_wait()")])

neg("unproven_arrivals", "A conditional arrival: the count per phase cannot be proven, so a warning.", [
  ("comment", "empty = lm.barrier", "expected-warning {{cannot prove that barrier 'empty' gets 1 arrival(s) per phase: an arrival on it is conditional}}"),
  ("replace", "lm.arrive(empty, stage=k)", "if k > 0:\n                lm.arrive(empty, stage=k)")])

# ---- near misses: the same kernels, correct
PASS = [
 ("pass_base_sm90a", "The base kernel of these tests: no diagnostics on sm_90a (a TMA load feeding wgmma needs no proxy fence).", [], BASE, "sm_90a"),
 ("pass_base_sm100a", "The Blackwell base kernel: no diagnostics on sm_100a (commit as the release).", [], BW, "sm_100a"),
 ("pass_ring_no_wrap", "A ring that never wraps (2 iterations, 2 stages) needs no release barrier.", [
   ("suball", "for k in lm.range(0, K // 64):", "for k in lm.range(0, 2):"),
   ("delete", "lm.wait(empty, stage=k)", None),
   ("delete", "lm.arrive(empty, stage=k)", None),
   ("delete", "empty = lm.barrier", None),
   ("replace", "full = lm.barrier", "full = lm.barrier(count=2, prod=[load], cons=[math])"),
   ("replace", "ring = lm.pipeline", "pass")], BASE, "sm_90a"),
 ("pass_stage_sequence_nested", "Stages restarting in an outer loop are fine when the inner trip count is a multiple of twice the ring (slot and phase repeat).", [
   ("suball", "        for k in lm.range(0, K // 64):", "        for i in lm.range(0, 3):\n          for k in lm.range(0, 4):")], BASE, "sm_90a"),
 ("pass_mma_two_blocks_per_warpgroup", "A warpgroup may hold 128 rows of the accumulator: two m64 wgmmas per k-step.", [
   ("replace", "acc = lm.regs", "acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)"),
   ("replace", "a_s = pool.view", 'a_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")'),
   ("replace", "b_s = pool.view", 'b_s = pool.view(offset=32768, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")'),
   ("replace", "c_s = pool.view", "c_s = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16)"),
   ("replace", "pool = lm.smem", "pool = lm.smem(98304)")], BASE, "sm_90a"),
 ("pass_swizzle_panels", "Swizzled rows of two 128-byte panels: TMA moves one box per panel.", [
   ("replace", "c_s = pool.view", 'c_s = pool.view(offset=49152, shape=(64, 128), dtype=lm.bf16, swizzle="128B")')], BASE, "sm_90a"),
 ("pass_alias_reuse", "An epilogue view aliasing the ring's bytes: reuse, not a swizzle flow.", [
   ("replace", "c_s = pool.view", "c_s = pool.view(offset=0, shape=(64, 128), dtype=lm.bf16, alias=True)"),
   ("replace", "pool = lm.smem", "pool = lm.smem(49152)")], BASE, "sm_90a"),
 ("pass_arrivals_per_warpgroup", "Two consumer warpgroups arriving once each on a barrier of init_count 2.", [
   ("replace", "math = lm.role", "math = lm.role(warps=[4, 5, 6, 7, 8, 9, 10, 11])"),
   ("replace", "acc = lm.regs", "acc = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)"),
   ("replace", "a_s = pool.view", 'a_s = pool.view(offset=0, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")'),
   ("replace", "b_s = pool.view", 'b_s = pool.view(offset=32768, shape=(128, 64), dtype=lm.bf16, stage=2, swizzle="128B")'),
   ("replace", "c_s = pool.view", "c_s = pool.view(offset=65536, shape=(128, 128), dtype=lm.bf16)"),
   ("replace", "pool = lm.smem", "pool = lm.smem(98304)"),
   ("replace", "empty = lm.barrier", "empty = lm.barrier(count=2, prod=[math], cons=[load], init_count=2, pipeline=ring)"),
   ("sub", "lm.arrive(empty", ("stage=k)", "stage=k, per=\"warpgroup\")"))], BASE, "sm_90a"),
]

os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    if f.endswith(".cake"): os.remove(os.path.join(OUT, f))
for name, purpose, edits, base, target, flags in tests:
    text = apply(base, edits)
    hdr = f"# {purpose}\n# RUN: %cakec -verify -fsyntax-only --target={target} {flags}%s\n"
    open(os.path.join(OUT, f"fail_{name}.cake"), "w").write(hdr + text)
for name, purpose, edits, base, target in PASS:
    text = apply(base, edits)
    hdr = f"# {purpose}\n# RUN: %cakec -verify -fsyntax-only --target={target} %s\n# expected-no-diagnostics\n"
    open(os.path.join(OUT, f"{name}.cake"), "w").write(hdr + text)
print(len(tests), len(PASS))
