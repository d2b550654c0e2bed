# A def without @cake.schedule.
# RUN: %cakec -verify -fsyntax-only %s
def helper(lm):  # expected-error {{function 'helper' is not a schedule; mark it with '@cake.schedule()'}}
    pass
