# A module name is a dotted name of identifiers wherever it comes from: a
# cake.instantiate string is checked as `import` checks its name, so no
# string reaches the file system as a path (issue 33: a NUL cut the path
# before '.cake' and read any file; '/' and '..' left the search path).
# RUN: %cakec -verify -fsyntax-only -Wno-unused -Wno-missing-schedule -I %S/Inputs %s
a = cake.instantiate("pkg/consts", TILE=1)  # expected-error {{invalid module name 'pkg/consts': expected a dotted name of identifiers, as after 'import'}}
b = cake.instantiate("../Inputs/pkg.consts")  # expected-error {{invalid module name '../Inputs/pkg.consts'}}
c = cake.instantiate("pkg/knobs\0")  # expected-error {{invalid module name 'pkg/knobs\0'}}
d = cake.instantiate("")  # expected-error {{invalid module name ''}}
e = cake.instantiate("pkg..consts")  # expected-error {{invalid module name 'pkg..consts'}}
f = cake.instantiate("pkg.consts.")  # expected-error {{invalid module name 'pkg.consts.'}}
g = cake.instantiate("1pkg")  # expected-error {{invalid module name '1pkg'}}
h = cake.instantiate("pkg.1consts")  # expected-error {{invalid module name 'pkg.1consts'}}
i = cake.instantiate("/etc/passwd")  # expected-error {{invalid module name '/etc/passwd'}}
j = cake.instantiate("pkg.con sts")  # expected-error {{invalid module name 'pkg.con sts'}}
k = cake.instantiate("pkg.consts", TILE=64)
