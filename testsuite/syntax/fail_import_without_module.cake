# Syntax error: import with no module name.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: fail_import_without_module.cake:[[@LINE+1]]:7: error: expected a name before end of line [syntax.missing-token]
import
