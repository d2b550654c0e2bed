// AstClone: deep copies of statements, in another AstContext.
//
// Sema analyses a role family's body once per member (docs/language.md,
// "Role families"); each member gets its own copy of the body's nodes, so
// what sema remembers per expression node (Kernel::exprValues) is each
// member's own. Copies keep every node's source range.
#pragma once

#include <vector>

#include "lexer_parser/Ast.h"

namespace cake::ast {

std::vector<Stmt *> cloneStmts(AstContext &ctx, const std::vector<Stmt *> &stmts);

}  // namespace cake::ast
