# Syntax error: a tab in indentation.
# RUN: not %cakec -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
with load:
# CHECK: fail_tab_indent.cake:[[@LINE+1]]:1: error: tab character in indentation; indent with spaces only [syntax.tab-in-indentation]
	pass
