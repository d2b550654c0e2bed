// AstClone: see AstClone.h.
#include "lexer_parser/AstClone.h"

namespace cake::ast {

namespace {

class Cloner {
public:
  explicit Cloner(AstContext &ctx) : ctx_(ctx) {}

  template <typename T>
  T *copy(const T *n) {
    T *c = ctx_.make<T>(n->range);
    *c = *n;  // scalars, strings and child pointers; children are replaced below
    return c;
  }

  std::vector<Expr *> exprs(const std::vector<Expr *> &list) {
    std::vector<Expr *> out;
    for (const Expr *e : list) out.push_back(expr(e));
    return out;
  }

  Expr *expr(const Expr *e) {
    if (!e) return nullptr;
    switch (e->kind) {
    case NodeKind::NameExpr: return copy(static_cast<const NameExpr *>(e));
    case NodeKind::IntLit: return copy(static_cast<const IntLit *>(e));
    case NodeKind::FloatLit: return copy(static_cast<const FloatLit *>(e));
    case NodeKind::StringLit: return copy(static_cast<const StringLit *>(e));
    case NodeKind::BoolLit: return copy(static_cast<const BoolLit *>(e));
    case NodeKind::NoneLit: return copy(static_cast<const NoneLit *>(e));
    case NodeKind::TupleExpr: {
      auto *c = copy(static_cast<const TupleExpr *>(e));
      c->elts = exprs(c->elts);
      return c;
    }
    case NodeKind::ListExpr: {
      auto *c = copy(static_cast<const ListExpr *>(e));
      c->elts = exprs(c->elts);
      return c;
    }
    case NodeKind::UnaryExpr: {
      auto *c = copy(static_cast<const UnaryExpr *>(e));
      c->operand = expr(c->operand);
      return c;
    }
    case NodeKind::BinaryExpr: {
      auto *c = copy(static_cast<const BinaryExpr *>(e));
      c->lhs = expr(c->lhs);
      c->rhs = expr(c->rhs);
      return c;
    }
    case NodeKind::CallExpr: {
      auto *c = copy(static_cast<const CallExpr *>(e));
      c->callee = expr(c->callee);
      c->args = exprs(c->args);
      for (Keyword &k : c->keywords) k.value = expr(k.value);
      return c;
    }
    case NodeKind::AttributeExpr: {
      auto *c = copy(static_cast<const AttributeExpr *>(e));
      c->object = expr(c->object);
      return c;
    }
    case NodeKind::SubscriptExpr: {
      auto *c = copy(static_cast<const SubscriptExpr *>(e));
      c->object = expr(c->object);
      c->indices = exprs(c->indices);
      return c;
    }
    case NodeKind::SliceExpr: {
      auto *c = copy(static_cast<const SliceExpr *>(e));
      c->lower = expr(c->lower);
      c->upper = expr(c->upper);
      c->step = expr(c->step);
      return c;
    }
    default: break;
    }
    return nullptr;  // a statement kind: never an expression
  }

  std::vector<Stmt *> stmts(const std::vector<Stmt *> &list) {
    std::vector<Stmt *> out;
    for (const Stmt *s : list) out.push_back(stmt(s));
    return out;
  }

  Stmt *stmt(const Stmt *s) {
    switch (s->kind) {
    case NodeKind::ImportStmt: return copy(static_cast<const ImportStmt *>(s));
    case NodeKind::FromImportStmt: return copy(static_cast<const FromImportStmt *>(s));
    case NodeKind::PassStmt: return copy(static_cast<const PassStmt *>(s));
    case NodeKind::AssignStmt: {
      auto *c = copy(static_cast<const AssignStmt *>(s));
      c->targets = exprs(c->targets);
      c->value = expr(c->value);
      return c;
    }
    case NodeKind::ExprStmt: {
      auto *c = copy(static_cast<const ExprStmt *>(s));
      c->expr = expr(c->expr);
      return c;
    }
    case NodeKind::FunctionDef: {
      auto *c = copy(static_cast<const FunctionDef *>(s));
      c->decorators = exprs(c->decorators);
      for (Param &p : c->params) {
        p.annotation = expr(p.annotation);
        p.defaultValue = expr(p.defaultValue);
      }
      c->returns = expr(c->returns);
      c->body = stmts(c->body);
      return c;
    }
    case NodeKind::WithStmt: {
      auto *c = copy(static_cast<const WithStmt *>(s));
      for (WithItem &i : c->items) i.context = expr(i.context);
      c->body = stmts(c->body);
      return c;
    }
    case NodeKind::ForStmt: {
      auto *c = copy(static_cast<const ForStmt *>(s));
      c->target = expr(c->target);
      c->iter = expr(c->iter);
      c->body = stmts(c->body);
      return c;
    }
    case NodeKind::IfStmt: {
      auto *c = copy(static_cast<const IfStmt *>(s));
      c->cond = expr(c->cond);
      c->body = stmts(c->body);
      c->orelse = stmts(c->orelse);
      return c;
    }
    default: break;
    }
    return nullptr;  // an expression kind: never a statement
  }

private:
  AstContext &ctx_;
};

}  // namespace

std::vector<Stmt *> cloneStmts(AstContext &ctx, const std::vector<Stmt *> &stmts) { return Cloner(ctx).stmts(stmts); }

}  // namespace cake::ast
