# A def inside a schedule.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    def inner(x):  # expected-error {{schedules cannot be defined inside other schedules}}
        pass
