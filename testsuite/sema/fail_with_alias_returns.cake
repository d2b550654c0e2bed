# Syntax the grammar takes but a schedule has no meaning for: `with r as y`
# (a role block binds nothing) and a return annotation (a schedule returns
# nothing). Both were silently ignored.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm) -> int:  # expected-error {{a schedule returns nothing; remove the '-> ...' annotation}}
    r = lm.role(warps=[0])
    with r as y:  # expected-error {{'as y' binds nothing: a role block is entered by the role's own name ('with role:')}}
        lm.role_sync()
