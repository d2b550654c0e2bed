# A role family's body is analysed once per member. An error the members
# report alike is reported once, at the body's line, with a note naming every
# member; one that depends on the member index is reported for the member(s)
# it holds for, and the note names them.
# RUN: %cakec -verify -fsyntax-only %s
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s
# CHECK: fail_member_diagnostics.cake:15:19: error: use of undefined name 'undefined_barrier'
# CHECK-NEXT: {{^}}        lm.arrive(undefined_barrier, stage=0)
# CHECK: fail_member_diagnostics.cake:14:10: note: in every member of role family 'wg'
# CHECK-NOT: undefined_barrier'
@cake.schedule()
def k(lm, n: LM.i32):
    wg = lm.roles(warps=[[0], [1], [2]])
    with wg as i:  # expected-note {{in every member of role family 'wg'}} expected-note {{in member 0 of role family 'wg'}} expected-note {{in members 1 and 2 of role family 'wg'}} expected-note {{in member 1 of role family 'wg'}} expected-note {{in member 2 of role family 'wg'}}
        lm.arrive(undefined_barrier, stage=0)  # expected-error {{use of undefined name 'undefined_barrier'}}
        x = 4 // i  # expected-error {{division by zero}}
        if i > 0:
            lm.role_sync(1)  # expected-error {{'lm.role_sync' takes at most 0 positional argument(s), 1 given}}
        for j in lm.range(0, n, 1 - i):  # expected-error {{the loop step must be positive, got 0}} expected-error {{the loop step must be positive, got -1}}
            lm.role_sync()
