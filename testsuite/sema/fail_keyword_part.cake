# A keyword that is one part of a parameter name gets a suggestion.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm):
    r = lm.role(warps=[0])
    b = lm.barrier(count=1, prod=[r], cons=[r], init=2)  # expected-error {{'lm.barrier' has no parameter 'init'; did you mean 'init_count'?}}
