# Attributes that do not exist on cake or on a value.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    x = r.warps  # expected-error {{the role 'r' has no attribute 'warps'}}
    y = cake.schedul  # expected-error {{'cake' has no attribute 'schedul'; did you mean 'schedule'?}}
