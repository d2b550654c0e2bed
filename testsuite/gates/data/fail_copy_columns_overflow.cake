# A part of a tile asked for at a column so large that its last column
# would overflow (found by FuzzPipeline, 2026-12-05: signed overflow in the
# data gate's bound check and message); the same check at a column just past
# the tile. Both are refused with the part named, never computed past int64.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm, Y: LM.tensor2d[128, 64]):
    pool = lm.smem(65536)
    w_s = pool.view(offset=0, shape=(128, 64), dtype=lm.f32)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    v = lm.regs(shape=(128, 128), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        w_s.store(v, col=9223372036854775807)  # expected-error {{'w_s.store' copies columns from 9223372036854775807 of 'v' (128x128 f32) into 'w_s' (128x64 f32): a part must lie within the tile and start and end on a multiple of 8 columns}}
        w_s.store(v, col=9223372036854775800)  # expected-error {{'w_s.store' copies columns from 9223372036854775800 of 'v' (128x128 f32) into 'w_s' (128x64 f32): a part must lie within the tile and start and end on a multiple of 8 columns}}
        w_s.store(v, col=72)  # expected-error {{'w_s.store' copies columns 72 to 135 of 'v' (128x128 f32) into 'w_s' (128x64 f32): a part must lie within the tile and start and end on a multiple of 8 columns}}
        w_s.store(v, col=64)
        lm.role_sync()
        w_s.copy_to(Y, coords=(0, 0))
