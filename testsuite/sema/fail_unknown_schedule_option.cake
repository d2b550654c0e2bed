# Options cake.schedule does not have, and bad values for those it has.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule(grdi=(1, 1), cluster=(0, 1))  # expected-error {{'cake.schedule' has no option 'grdi'; did you mean 'grid'?}} expected-error {{a cluster dimension must be positive, got 0}}
def k(lm):
    pass
