# Names that shadow the language's own words get diagnostics, not crashes.
# A schedule whose decorator is not the real cake.schedule is not analysed.
# RUN: %cakec -verify -fsyntax-only %s
LM = 3
cake = 4
@cake.schedule()  # expected-error {{unknown decorator; schedules are marked with '@cake.schedule()'}}
def k(lm, A: LM.tma2d):
    pass
