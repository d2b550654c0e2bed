# A warp index that makes the block larger than 1024 threads.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    r = lm.role(warps=[0, 32])  # expected-error {{role 'r' uses warp 32, making a block of 1056 threads; the limit is 1024}}
    with r:
        lm.role_sync()
