# What cake.instantiate takes: a module's dotted name as one string, then
# compile-time values for constants the module defines; at module level.
# RUN: %cakec -verify -fsyntax-only -I %S/Inputs %s
a = cake.instantiate("pkg.consts", TILES=128)  # expected-error {{module 'pkg.consts' has no constant or schedule 'TILES'; did you mean 'TILE'?}}
b = cake.instantiate(pkg, TILE=128)  # expected-error {{invalid 'cake.instantiate': it takes the module's dotted name as one string, then its constants by keyword}}
c = cake.instantiate("no.such.module", TILE=1)  # expected-error {{cannot find module 'no.such.module'; searched}}
d = cake.instantiate("pkg.consts", TILE=(1, 2))  # expected-error {{invalid 'cake.instantiate': 'TILE' must be a compile-time integer, number or boolean, not a tuple}}
e = cake.instatiate("pkg.consts")  # expected-error {{'cake' has no attribute 'instatiate'; did you mean 'instantiate'?}}
f = cake.instantiate("pkg.knobs", TILE=128)  # expected-error {{invalid 'cake.instantiate': 'TILE' is not a constant 'pkg.knobs' assigns by itself (one it imports, or one of a tuple assignment, cannot be replaced)}}
g = cake.instantiate("pkg.knobs", A=7)  # expected-error {{invalid 'cake.instantiate': 'A' is not a constant 'pkg.knobs' assigns by itself (one it imports, or one of a tuple assignment, cannot be replaced)}}
h = cake.instantiate("pkg.knobs", SCALE=2.0)  # a number stays a number: 2.0 is not the integer 2
@cake.schedule()
def k(lm, n: LM.i32):
    pool = lm.smem(h.SCALE * 64)  # expected-error {{argument 'bytes' of 'lm.smem' must be a compile-time integer, not a number}}
    x = cake.instantiate("pkg.consts", TILE=n)  # expected-error {{invalid 'cake.instantiate': it belongs at module level, as an import does}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
