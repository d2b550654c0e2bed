# Kernel parameters after the builder need a type.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A, B: 3):  # expected-error {{parameter 'A' needs a type: 'LM.tma1d' to 'LM.tma5d' (a TMA tensor), 'LM.tensor1d' to 'LM.tensor5d' (a pointer with strides), or a scalar such as 'LM.i32'}} expected-error {{parameter 'B' needs a type}}
    pass
