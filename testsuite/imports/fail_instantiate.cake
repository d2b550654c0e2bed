# What cake.instantiate takes: a module's dotted name as one string, then
# compile-time values for constants the module defines; at module level.
# RUN: %cakec -verify -fsyntax-only -I %S/Inputs %s
a = cake.instantiate("pkg.consts", TILES=128)  # expected-error {{module 'pkg.consts' has no constant or schedule 'TILES'; did you mean 'TILE'?}}
b = cake.instantiate(pkg, TILE=128)  # expected-error {{invalid 'cake.instantiate': it takes the module's dotted name as one string, then its constants by keyword}}
c = cake.instantiate("no.such.module", TILE=1)  # expected-error {{cannot find module 'no.such.module'; searched}}
d = cake.instantiate("pkg.consts", TILE=(1, 2))  # expected-error {{invalid 'cake.instantiate': 'TILE' must be a compile-time integer, number or boolean, not a tuple}}
e = cake.instatiate("pkg.consts")  # expected-error {{'cake' has no attribute 'instatiate'; did you mean 'instantiate'?}}
@cake.schedule()
def k(lm, n: LM.i32):
    x = cake.instantiate("pkg.consts", TILE=n)  # expected-error {{invalid 'cake.instantiate': it belongs at module level, as an import does}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
