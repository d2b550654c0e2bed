# Import errors: a missing module, a missing constant (with a suggestion),
# an import cycle (reported in the module that closes it), a module with a
# syntax error, and an import inside a schedule.
# RUN: %cakec -verify -fsyntax-only -Wno-unused -I %S/Inputs %s
import no.such.module  # expected-error {{cannot find module 'no.such.module'; searched}}
from pkg.consts import TILES  # expected-error {{module 'pkg.consts' has no constant or schedule 'TILES'; did you mean 'TILE'?}}
import pkg.consts as c
X = c.NAMES  # expected-error {{module 'pkg.consts' has no constant or schedule 'NAMES'; did you mean 'NAME'?}}
import cycle_a
import broken
@cake.schedule()
def k(lm):
    import pkg.consts  # expected-error {{imports belong at module level, not inside a schedule}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
