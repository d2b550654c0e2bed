# cake.instantiate analyses a module again with some of its module-level
# constants replaced, as -D replaces them: constants derived from them follow
# (SHAPE is (TILE, 2 * TILE)), the plain import keeps its own values, and
# each distinct set of constants is one analysis. A family routes to an
# instance's schedules (examples/gemm_bf16_family_sm90a.cake).
# RUN: %cakec --emit=ir --target=sm_90a -Wno-unused -I %S/Inputs %s -o %t.ir
# RUN: FileCheck %s < %t.ir
import pkg.consts as plain
wide = cake.instantiate("pkg.consts", TILE=128)
narrow = cake.instantiate("pkg.consts", TILE=16)
knobs = cake.instantiate("pkg.knobs", ROWS=16, SCALE=0.25)
@cake.schedule()
def k(lm):
    a = lm.smem(plain.SHAPE[1])
    b = lm.smem(wide.SHAPE[1])
    d = lm.smem(narrow.TILE)
    e = lm.smem(knobs.ROWS * 8)
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
# CHECK: pool     a         128 B
# CHECK: pool     b         256 B
# CHECK: pool     d         16 B
# CHECK: pool     e         128 B
