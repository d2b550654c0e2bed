# The mma.sync lowering takes A from registers and an MN-major B (a (K, N)
# view used without '.T', read with ldmatrix .trans) for 16-bit types only:
# fp8 operands are refused with lower.mma-placement at the MMA's line, under
# -fsyntax-only (which runs the lowering). The 16-bit forms:
# attention_mma_sync_lowering.test.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_89 %s
@cake.schedule()
def fp8_mn_major_b(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d):
    pool = lm.smem(32768)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.e4m3, swizzle="64B")
    b_s = pool.view(offset=4096, shape=(64, 64), dtype=lm.e4m3, swizzle="64B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    with math:
        a_s.cp_async(A, coords=(0, 0), barrier=got)
        b_s.cp_async(B, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        lm.mma(acc, a_s, b_s, init=True)  # expected-error {{'lm.mma' has no sm_89 lowering: mma.sync takes A from registers and an MN-major B (used without '.T') for 16-bit types only}}
        lm.store_tile(C, coords=(0, 0), src=lm.cast(acc, lm.bf16))

# -----
@cake.schedule()
def fp8_a_from_registers(lm, A: LM.tensor2d, B: LM.tensor2d, C: LM.tensor2d):
    pool = lm.smem(32768)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.e4m3, swizzle="64B")
    b_s = pool.view(offset=4096, shape=(64, 64), dtype=lm.e4m3, swizzle="64B")
    math = lm.role(warps=[0, 1, 2, 3])
    acc = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    out = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    got = lm.barrier(count=1, prod=[math], cons=[math], init_count=256)
    with math:
        a_s.cp_async(A, coords=(0, 0), barrier=got)
        b_s.cp_async(B, coords=(0, 0), barrier=got)
        lm.wait(got, stage=0)
        lm.mma(acc, a_s, b_s.T, init=True)
        p8 = lm.cast(acc, lm.e4m3)
        lm.mma(out, p8, b_s.T, init=True)  # expected-error {{'lm.mma' has no sm_89 lowering: mma.sync takes A from registers and an MN-major B (used without '.T') for 16-bit types only}}
        lm.store_tile(C, coords=(0, 0), src=lm.cast(out, lm.bf16))
