# Imports are parsed but not resolved yet (module resolution is a later issue).
# RUN: %cakec -verify -fsyntax-only %s
import stdlib.tiles  # expected-error {{module imports are not resolved yet; cannot import 'stdlib.tiles'}}
from stdlib.epilogue import store  # expected-error {{cannot import 'stdlib.epilogue'}}
@cake.schedule()
def k(lm):
    pass
