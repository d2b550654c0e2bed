# Syntax error: from ... without import.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_from_without_import.cake:[[@LINE+1]]:19: error: expected 'import' before name 'tile' [syntax.missing-token]
from stdlib.tiles tile
