# Several negative cases in one file: --split-input-file checks each part
# between '# -----' lines on its own, with the file's line numbers. Every
# part defines a schedule 'k' (one file would redefine it).
# RUN: %cakec -verify -split-input-file -fsyntax-only --target=sm_90a %s
# RUN: not %cakec -verify -fsyntax-only --target=sm_90a %s 2>&1 | FileCheck --check-prefix=WHOLE %s
# WHOLE: error seen but not expected: {{.*}}'k'
@cake.schedule()
def k(lm, A: LM.tma2d, n: LM.i32):
    r = lm.role(warps=[0])
    r.x = 1  # expected-error {{only names can be assigned in a schedule}}

# -----
@cake.schedule()
def k(lm):
    r = lm.role(warps=[0])
    with r:
        lm.arrive(b, stage=0)  # expected-error {{'b'}}

# -----
# A part with nothing wrong.
# expected-no-diagnostics
@cake.schedule()
def k(lm):
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
