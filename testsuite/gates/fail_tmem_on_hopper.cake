# Tensor memory does not exist on sm_90a.
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
@cake.schedule()
def k(lm):
    acc = lm.tmem(cols=0, width=64, shape=(128, 64), dtype=lm.f32)  # expected-error {{'lm.tmem' is not available on sm_90a; it exists on sm_100a, sm_103a}} expected-warning {{tmem 'acc' is declared but never used}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
