# A schedule that gives no warps a role has nothing to run: its block would
# have no threads (blockDim 0, which cannot launch), so it is an error at
# the schedule, not a kernel that fails at run time. The near miss, one
# role of one warp, passes.
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# RUN: %expect-exit 1 %cakec --target=sm_90a %s -o %t.cu 2>&1 | FileCheck %s
# CHECK: error: schedule 'k' declares no role{{.*}}[schedule.no-roles]
# RUN: not test -e %t.cu
@cake.schedule()
def k(lm, n: LM.i32):  # expected-error {{schedule 'k' declares no role, so its kernel would launch no threads; give the work to warps with lm.role(warps=[...])}}
    x = n + 1

# -----
# expected-no-diagnostics
@cake.schedule()
def k_roles(lm, n: LM.i32):
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
