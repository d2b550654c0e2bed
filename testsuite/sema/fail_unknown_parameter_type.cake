# A parameter type LM does not have.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma3, B: LM.i23):  # expected-error {{unknown parameter type 'LM.tma3'; did you mean 'tma3d'?}} expected-error {{unknown parameter type 'LM.i23'; did you mean 'i32'?}}
    pass
