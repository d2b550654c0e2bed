# The grid must be a tuple of one to three integers.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule(grid=(1.5, 2), cluster=(n, 1))  # expected-error {{argument 'grid' of 'cake.schedule' must be a tuple of one to three integers, not a tuple}} expected-error {{the cluster shape must be a compile-time constant}}
def k(lm, n: LM.i32):
    pass
