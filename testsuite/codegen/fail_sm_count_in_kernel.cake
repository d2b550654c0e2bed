# The multiprocessor count is the launcher's; a kernel uses lm.num_blocks.
# RUN: %cakec -verify --target=sm_90a --emit=cuda %s
# The check alone reports the same (-fsyntax-only runs the lowering).
# RUN: %cakec -verify --target=sm_90a -fsyntax-only %s
@cake.schedule(grid=(lm.sm_count(),))
def k(lm, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        for t in lm.range(lm.block_id(0), n, lm.sm_count()):  # expected-error {{'lm.sm_count()' cannot be lowered here: the multiprocessor count is the launcher's; in the kernel, use lm.num_blocks(0)}}
            lm.fence_proxy()
