# The first parameter must be the untyped builder handle.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(A: LM.tma2d):  # expected-error {{schedule 'k' needs the builder handle as its first parameter, as in 'def k(lm, ...)'}}
    pass
@cake.schedule()
def k2():  # expected-error {{schedule 'k2' needs the builder handle as its first parameter, as in 'def k2(lm, ...)'}}
    pass
