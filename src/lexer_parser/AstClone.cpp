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

  // A copy of `n` whose children `fix` replaces by their copies.
  template <typename T, typename F>
  T *copyWith(const Node *n, F fix) {
    T *c = copy(static_cast<const T *>(n));
    fix(*c);
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
    case NodeKind::TupleExpr: return copyWith<TupleExpr>(e, [&](TupleExpr &c) { c.elts = exprs(c.elts); });
    case NodeKind::ListExpr: return copyWith<ListExpr>(e, [&](ListExpr &c) { c.elts = exprs(c.elts); });
    case NodeKind::UnaryExpr: return copyWith<UnaryExpr>(e, [&](UnaryExpr &c) { c.operand = expr(c.operand); });
    case NodeKind::BinaryExpr:
      return copyWith<BinaryExpr>(e, [&](BinaryExpr &c) {
        c.lhs = expr(c.lhs);
        c.rhs = expr(c.rhs);
      });
    case NodeKind::CallExpr:
      return copyWith<CallExpr>(e, [&](CallExpr &c) {
        c.callee = expr(c.callee);
        c.args = exprs(c.args);
        for (Keyword &k : c.keywords) k.value = expr(k.value);
      });
    case NodeKind::AttributeExpr:
      return copyWith<AttributeExpr>(e, [&](AttributeExpr &c) { c.object = expr(c.object); });
    case NodeKind::SubscriptExpr:
      return copyWith<SubscriptExpr>(e, [&](SubscriptExpr &c) {
        c.object = expr(c.object);
        c.indices = exprs(c.indices);
      });
    case NodeKind::SliceExpr:
      return copyWith<SliceExpr>(e, [&](SliceExpr &c) {
        c.lower = expr(c.lower);
        c.upper = expr(c.upper);
        c.step = expr(c.step);
      });
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
    case NodeKind::AssignStmt:
      return copyWith<AssignStmt>(s, [&](AssignStmt &c) {
        c.targets = exprs(c.targets);
        c.value = expr(c.value);
      });
    case NodeKind::ExprStmt: return copyWith<ExprStmt>(s, [&](ExprStmt &c) { c.expr = expr(c.expr); });
    case NodeKind::FunctionDef:
      return copyWith<FunctionDef>(s, [&](FunctionDef &c) {
        c.decorators = exprs(c.decorators);
        for (Param &p : c.params) {
          p.annotation = expr(p.annotation);
          p.defaultValue = expr(p.defaultValue);
        }
        c.returns = expr(c.returns);
        c.body = stmts(c.body);
      });
    case NodeKind::WithStmt:
      return copyWith<WithStmt>(s, [&](WithStmt &c) {
        for (WithItem &i : c.items) i.context = expr(i.context);
        c.body = stmts(c.body);
      });
    case NodeKind::ForStmt:
      return copyWith<ForStmt>(s, [&](ForStmt &c) {
        c.target = expr(c.target);
        c.iter = expr(c.iter);
        c.body = stmts(c.body);
      });
    case NodeKind::IfStmt:
      return copyWith<IfStmt>(s, [&](IfStmt &c) {
        c.cond = expr(c.cond);
        c.body = stmts(c.body);
        c.orelse = stmts(c.orelse);
      });
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
