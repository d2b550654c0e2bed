# A family whose signature has a float parameter: only integer parameters
# are shape dimensions (family_ir.test).
@cake.schedule()
def s(lm, M: LM.i32, alpha: LM.f32):
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
@cake.family
def fam(lm, M: LM.i32, alpha: LM.f32):
    lm.domain(M, 1, 16384)
    lm.route(s, when=M <= 64)
    lm.fallback(s)
