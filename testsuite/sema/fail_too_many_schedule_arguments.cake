# cake.schedule takes keyword options only.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule(4)  # expected-error {{'cake.schedule' takes at most 0 positional argument(s), 1 given}}
def k(lm):
    pass
