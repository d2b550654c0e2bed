# A wait for wgmma groups leaves 0 or more groups in flight: a negative count
# would pass to wgmma.wait_group unchecked.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        lm.mma_wait(pending=-1)  # expected-error {{argument 'pending' of 'lm.mma_wait' must be 0 or more, got -1}}
