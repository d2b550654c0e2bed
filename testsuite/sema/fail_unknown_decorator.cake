# Decorators other than cake.schedule.
# RUN: %cakec -verify -fsyntax-only %s
@cake.kernel()  # expected-error {{unknown decorator; schedules are marked with '@cake.schedule()'}}
def k(lm):
    pass
