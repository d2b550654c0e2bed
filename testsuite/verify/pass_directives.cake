# -verify accepts diagnostics that match their expected-* directives, in
# every placement form.
# RUN: %cakec -verify -fsyntax-only %s
x = (1 + )  # expected-error {{unexpected ')'; expected an expression}}
# expected-error@+1 {{unmatched ')'}}
y = f(1))
z = (a, b]
# expected-error@-1 {{closing ']' does not match}} expected-note@-1 {{'(' opened here}}
# expected-error@11 {{invalid character '$'}}

q = $
