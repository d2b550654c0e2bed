# Register budgets that together exceed the register file.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):  # expected-error {{register budgets need 98304 registers per block (256 x 256 threads for 'big' + 256 x 128 threads for 'more'); an SM has 65536}}
    big = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7], regs=256)
    more = lm.role(warps=[8, 9, 10, 11], regs=256)
    with big:
        lm.role_sync()
    with more:
        lm.role_sync()
