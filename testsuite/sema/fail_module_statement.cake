# Statements other than schedules, imports and constants at module level.
# RUN: %cakec -verify -fsyntax-only %s
TILE = 128
TILE + 1  # expected-error {{only schedules, imports and constant definitions may appear at module level}}
with TILE:  # expected-error {{only schedules, imports and constant definitions may appear at module level}}
    pass
@cake.schedule()
def k(lm):
    pass
