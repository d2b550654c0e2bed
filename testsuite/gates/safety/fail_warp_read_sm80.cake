# On sm_80 each warp's mma.sync reads its tiles of the operands from shared
# memory with ldmatrix, whichever warps stored them: a role of four warps
# that stores A and B and multiplies them right away reads other warps'
# stores unordered (found 2026-12-05 while extending safety.warpgroup-read;
# it had been accepted). The near miss, with lm.role_sync() after the
# stores, is pass_warp_read_sm80.cake.
# RUN: %cakec -verify -fsyntax-only --target=sm_80 %s
@cake.schedule()
def k(lm, O: LM.tensor2d[64, 64]):
    pool = lm.smem(65536)
    a_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16)
    b_s = pool.view(offset=8192, shape=(64, 64), dtype=lm.bf16)
    math = lm.role(warps=[0, 1, 2, 3])
    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)
    o = lm.regs(shape=(64, 64), dtype=lm.f32, role=math)
    with math:
        s = lm.fill(s, 1.0)
        a_s.store(s)  # expected-note {{'a_s' written here}}
        b_s.store(s)  # expected-note {{'b_s' written here}}
        lm.fence_proxy()
        lm.mma(o, a_s, b_s.T, init=True)  # expected-error {{the MMA of each warp of role 'math' reads parts of 'a_s' ('mma') right after the role's threads wrote it, but each warp's MMA reads rows and columns other warps stored; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' between the stores and the MMA (mma.sync needs no fence)}} expected-error {{the MMA of each warp of role 'math' reads parts of 'b_s' ('mma') right after the role's threads wrote it, but each warp's MMA reads rows and columns other warps stored; the MMA orders no other warp's stores before its reads: add 'lm.role_sync()' between the stores and the MMA (mma.sync needs no fence)}}
        lm.store_tile(O, coords=(0, 0), src=o)
