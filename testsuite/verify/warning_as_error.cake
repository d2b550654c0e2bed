# Under -Werror a warning is verified as the error it became.
# RUN: printf '' > %t.cake
# RUN: %cakec -fsyntax-only %t.cake 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: not %cakec -Werror -fsyntax-only %t.cake 2>&1 | FileCheck %s --check-prefix=ERR
# WARN: warning: input file is empty [input.empty]
# ERR: error: input file is empty [input.empty]
