// AstBuilder: turns CakeParser's parse tree into our AST (lexer_parser/Ast.h)
// by walking the generated context accessors. Internal to src/lexer_parser/.
//
// It also reports the few errors the grammar leaves to it: assignment to
// something that is not a target, integer literals beyond 64 bits and
// unknown string escapes.
#pragma once

#include "CakeParser.h"
#include "diagnostics/Diagnostics.h"
#include "lexer_parser/Ast.h"

namespace cake {

class AstBuilder {
public:
  AstBuilder(ast::Module &module, DiagnosticEngine &diags) : m_(module), diags_(diags) {}

  // One top-level statement of file_input : (NEWLINE | stmt)* EOF; the
  // parser hands them over one at a time (lexer_parser/Parse.cpp).
  void stmt(CakeParser::StmtContext *ctx, std::vector<ast::Stmt *> &out);

private:
  using Ctx = antlr4::ParserRuleContext;

  SourceRange range(Ctx *ctx) const;
  SourceRange range(antlr4::tree::TerminalNode *n) const;
  SourceRange range(antlr4::Token *t) const;

  void simpleStmt(CakeParser::Simple_stmtContext *ctx, std::vector<ast::Stmt *> &out);
  ast::Stmt *compoundStmt(CakeParser::Compound_stmtContext *ctx);
  void block(CakeParser::BlockContext *ctx, std::vector<ast::Stmt *> &out);
  ast::Stmt *exprStmt(CakeParser::Expr_stmtContext *ctx);
  ast::Stmt *importStmt(CakeParser::Import_stmtContext *ctx);
  ast::Stmt *fromImportStmt(CakeParser::From_import_stmtContext *ctx);
  ast::FunctionDef *funcdef(CakeParser::FuncdefContext *ctx);
  ast::Stmt *withStmt(CakeParser::With_stmtContext *ctx);
  ast::Stmt *forStmt(CakeParser::For_stmtContext *ctx);
  ast::Stmt *ifStmt(CakeParser::If_stmtContext *ctx);
  void checkTarget(ast::Expr *e);
  void endAtBody(ast::Stmt *s, const std::vector<ast::Stmt *> &body);

  ast::Expr *test(CakeParser::TestContext *ctx);
  ast::Expr *binary(CakeParser::TestContext *ctx, CakeParser::TestContext *lhs, antlr4::Token *op,
                    CakeParser::TestContext *rhs);
  ast::Expr *atomExpr(CakeParser::Atom_exprContext *ctx);
  ast::Expr *atom(CakeParser::AtomContext *ctx);
  ast::Expr *trailer(ast::Expr *base, CakeParser::TrailerContext *ctx);
  ast::Expr *subscript(CakeParser::SubscriptContext *ctx);
  ast::Expr *testlist(CakeParser::TestlistContext *ctx);
  ast::Expr *exprlist(CakeParser::ExprlistContext *ctx);
  ast::Expr *intLiteral(antlr4::Token *t);
  ast::Expr *stringLiteral(const std::vector<antlr4::tree::TerminalNode *> &parts, SourceRange r);
  // A placeholder for a piece the parser recovered without; never null.
  ast::Expr *missing(SourceRange r);

  ast::Module &m_;
  DiagnosticEngine &diags_;
};

}  // namespace cake
