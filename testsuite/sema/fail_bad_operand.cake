# Operators applied to values they do not accept.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    x = r + 1  # expected-error {{operator '+' cannot be applied to the role 'r'}}
    y = not 3  # expected-error {{operator 'not' cannot be applied to the integer 3}}
    z = -lm.f32  # expected-error {{operator '-' cannot be applied to the dtype 'f32'}}
    w = True and 1  # expected-error {{operator 'and' cannot be applied to the integer 1}}
