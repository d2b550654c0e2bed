# The import forms, resolved through -I, CAKE_PATH, the file's own directory
# and the standard library; module constants are usable everywhere a
# constant is, and the dependency file lists every module read.
# RUN: %cakec --emit=ir --target=sm_90a -Wno-unused -I %S/Inputs %s -o %t.ir -MD -MF %t.d
# RUN: FileCheck %s < %t.ir
# RUN: FileCheck %s --check-prefix=DEPS < %t.d
# RUN: env CAKE_PATH=/nonexistent:%S/Inputs %cakec -fsyntax-only -Wno-unused --target=sm_90a %s
# RUN: not %cakec -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck %s --check-prefix=NOPATH
import pkg.consts
import pkg.consts as c
from pkg.consts import TILE as T, SHAPE
from stdlib.hopper import WGMMA_M
import stdlib.hopper
@cake.schedule()
def k(lm):
    a = lm.smem(pkg.consts.TILE * 16)
    b = lm.smem(c.SHAPE[1] * T)
    d = lm.smem(SHAPE[0] + WGMMA_M + stdlib.hopper.WARPGROUP_WARPS)
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
# CHECK: pool     a         1024 B
# CHECK: pool     b         8192 B
# CHECK: pool     d         132 B
# DEPS: .tmp.ir: \
# DEPS-NEXT: import_forms.cake
# DEPS-NEXT: Inputs/pkg/consts.cake
# DEPS-NEXT: stdlib/hopper.cake
# NOPATH: error: cannot find module 'pkg.consts'; searched
