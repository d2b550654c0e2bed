# A wait for async groups leaves 0 to 7 groups in flight: a negative count
# would pass to wgmma.wait_group unchecked, and the safety gate follows a
# read across at most 7 later groups (a larger count is out of range too,
# for TMA stores as for wgmma).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    math = lm.role(warps=[0, 1, 2, 3])
    with math:
        lm.mma_wait(pending=-1)  # expected-error {{argument 'pending' of 'lm.mma_wait' must be 0 to 7, got -1}}
        lm.mma_wait(pending=8)  # expected-error {{argument 'pending' of 'lm.mma_wait' must be 0 to 7, got 8}}
        lm.mma_wait(pending=7)
        lm.tma_store_wait(pending=8)  # expected-error {{argument 'pending' of 'lm.tma_store_wait' must be 0 to 7, got 8}}
