# Syntax error: a block header followed by an unindented line.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
with load:
# CHECK: fail_expected_block.cake:[[@LINE+1]]:1: error: expected an indented block after ':' [syntax.expected-indented-block]
pass
