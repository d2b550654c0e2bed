# The near miss of fail_value_read_written.cake: rows of Z updated in place
# by offsets read from a table OFF the kernel never writes.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# expected-no-diagnostics
@cake.schedule(grid=((M + 3) // 4,))
def k(lm, OFF: LM.tensor1d[G], Z: LM.tensor2d[M, 256], M: LM.i32, G: LM.i32):
    w = lm.role(warps=[0, 1, 2, 3])
    with w:
        base = lm.load_scalar(OFF, coords=(lm.block_id(0) % G,), lo=0, hi=1)
        r = (base + lm.block_id(0)) * 4
        z = lm.load_tile(Z, coords=(0, r), shape=(4, 256), dtype=lm.f32)
        lm.store_tile(Z, coords=(0, r), src=z + z)
