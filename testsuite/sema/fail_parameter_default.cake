# Kernel parameters take no defaults.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, n: LM.i32 = 4):  # expected-error {{kernel parameter 'n' cannot have a default value}}
    pass
