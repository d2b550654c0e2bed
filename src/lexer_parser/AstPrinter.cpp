// AstPrinter: `--emit=ast`, one node a line, children indented by two
// spaces, each with its source range as @line:col-line:col.
#include <fmt/format.h>

#include "lexer_parser/Parse.h"

namespace cake {

using namespace ast;

namespace ast {
const char *nodeKindName(NodeKind k) {
  switch (k) {
    // clang-format off
#define AST_EXPR(Name) case NodeKind::Name: return #Name;
#define AST_STMT(Name) case NodeKind::Name: return #Name;
#include "lexer_parser/AstKinds.def"
    // clang-format on
  }
  return "?";
}

const char *unaryOpSpelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::Pos: return "+";
  case UnaryOp::Not: return "not";
  }
  return "?";
}

const char *binaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Ge: return ">=";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::And: return "and";
  case BinaryOp::Or: return "or";
  }
  return "?";
}
}  // namespace ast

namespace {

class Printer {
public:
  std::string out;

  void stmts(const std::vector<Stmt *> &list, int depth) {
    for (const Stmt *s : list) stmt(s, depth);
  }

private:
  static std::string loc(const SourceRange &r) {
    if (!r.valid()) return "@?";
    return fmt::format("@{}:{}-{}:{}", r.begin.line, r.begin.col, r.end.line, r.end.col);
  }
  void line(int depth, const std::string &text) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    out += '\n';
  }
  void label(int depth, const char *name, const Expr *e) {
    if (!e) return;
    line(depth, std::string(name) + ":");
    expr(e, depth + 1);
  }
  void block(int depth, const char *name, const std::vector<Stmt *> &body) {
    line(depth, std::string(name) + ":");
    stmts(body, depth + 1);
  }

  void stmt(const Stmt *s, int depth) {
    std::string head = std::string(nodeKindName(s->kind));
    if (auto *f = dyn_cast<FunctionDef>(s)) {
      line(depth, fmt::format("{} '{}' {}", head, f->name, loc(s->range)));
      for (const Expr *d : f->decorators) label(depth + 1, "decorator", d);
      for (const Param &p : f->params) {
        line(depth + 1, fmt::format("Param '{}' {}", p.name, loc(p.range)));
        label(depth + 2, "type", p.annotation);
        label(depth + 2, "default", p.defaultValue);
      }
      label(depth + 1, "returns", f->returns);
      block(depth + 1, "body", f->body);
    } else if (auto *a = dyn_cast<AssignStmt>(s)) {
      line(depth, fmt::format("{} {}", head, loc(s->range)));
      for (const Expr *t : a->targets) label(depth + 1, "target", t);
      label(depth + 1, "value", a->value);
    } else if (auto *e = dyn_cast<ExprStmt>(s)) {
      line(depth, fmt::format("{} {}", head, loc(s->range)));
      expr(e->expr, depth + 1);
    } else if (auto *w = dyn_cast<WithStmt>(s)) {
      line(depth, fmt::format("{} {}", head, loc(s->range)));
      for (const WithItem &item : w->items) {
        label(depth + 1, "item", item.context);
        if (!item.alias.empty()) line(depth + 2, fmt::format("as '{}' {}", item.alias, loc(item.aliasRange)));
      }
      block(depth + 1, "body", w->body);
    } else if (auto *f = dyn_cast<ForStmt>(s)) {
      line(depth, fmt::format("{} {}", head, loc(s->range)));
      label(depth + 1, "target", f->target);
      label(depth + 1, "iter", f->iter);
      block(depth + 1, "body", f->body);
    } else if (auto *i = dyn_cast<IfStmt>(s)) {
      line(depth, fmt::format("{}{} {}", head, i->isElif ? " (elif)" : "", loc(s->range)));
      label(depth + 1, "cond", i->cond);
      block(depth + 1, "then", i->body);
      if (!i->orelse.empty()) block(depth + 1, "else", i->orelse);
    } else if (auto *imp = dyn_cast<ImportStmt>(s)) {
      line(depth, fmt::format("{} {}", head, loc(s->range)));
      for (const ImportName &n : imp->names)
        line(depth + 1, fmt::format("'{}'{} {}", n.name, n.alias.empty() ? "" : " as '" + n.alias + "'", loc(n.range)));
    } else if (auto *from = dyn_cast<FromImportStmt>(s)) {
      line(depth, fmt::format("{} '{}' {}", head, from->module, loc(s->range)));
      for (const ImportName &n : from->names)
        line(depth + 1, fmt::format("'{}'{} {}", n.name, n.alias.empty() ? "" : " as '" + n.alias + "'", loc(n.range)));
    } else {
      line(depth, fmt::format("{} {}", head, loc(s->range)));
    }
  }

  void expr(const Expr *e, int depth) {
    if (!e) {
      line(depth, "<missing>");
      return;
    }
    std::string head = nodeKindName(e->kind);
    std::string l = loc(e->range);
    if (auto *n = dyn_cast<NameExpr>(e)) {
      line(depth, fmt::format("{} '{}' {}", head, n->name, l));
    } else if (auto *i = dyn_cast<IntLit>(e)) {
      line(depth, fmt::format("{} {} {}", head, i->value, l));
    } else if (auto *f = dyn_cast<FloatLit>(e)) {
      line(depth, fmt::format("{} {} {}", head, f->spelling, l));
    } else if (auto *s = dyn_cast<StringLit>(e)) {
      std::string shown;
      for (char c : s->value) shown += (c == '\n') ? std::string("\\n") : std::string(1, c);
      line(depth, fmt::format("{} \"{}\" {}", head, shown, l));
    } else if (auto *b = dyn_cast<BoolLit>(e)) {
      line(depth, fmt::format("{} {} {}", head, b->value ? "True" : "False", l));
    } else if (auto *t = dyn_cast<TupleExpr>(e)) {
      line(depth, fmt::format("{} {}", head, l));
      for (const Expr *x : t->elts) expr(x, depth + 1);
    } else if (auto *li = dyn_cast<ListExpr>(e)) {
      line(depth, fmt::format("{} {}", head, l));
      for (const Expr *x : li->elts) expr(x, depth + 1);
    } else if (auto *u = dyn_cast<UnaryExpr>(e)) {
      line(depth, fmt::format("{} '{}' {}", head, unaryOpSpelling(u->op), l));
      expr(u->operand, depth + 1);
    } else if (auto *bin = dyn_cast<BinaryExpr>(e)) {
      line(depth, fmt::format("{} '{}' {}", head, binaryOpSpelling(bin->op), l));
      expr(bin->lhs, depth + 1);
      expr(bin->rhs, depth + 1);
    } else if (auto *c = dyn_cast<CallExpr>(e)) {
      line(depth, fmt::format("{} {}", head, l));
      label(depth + 1, "callee", c->callee);
      for (const Expr *a : c->args) label(depth + 1, "arg", a);
      for (const Keyword &k : c->keywords) {
        line(depth + 1, fmt::format("keyword '{}' {}", k.name, loc(k.nameRange)));
        expr(k.value, depth + 2);
      }
    } else if (auto *a = dyn_cast<AttributeExpr>(e)) {
      line(depth, fmt::format("{} '.{}' {}", head, a->attr, l));
      expr(a->object, depth + 1);
    } else if (auto *sub = dyn_cast<SubscriptExpr>(e)) {
      line(depth, fmt::format("{} {}", head, l));
      expr(sub->object, depth + 1);
      for (const Expr *x : sub->indices) label(depth + 1, "index", x);
    } else if (auto *sl = dyn_cast<SliceExpr>(e)) {
      line(depth, fmt::format("{} {}", head, l));
      label(depth + 1, "lower", sl->lower);
      label(depth + 1, "upper", sl->upper);
      label(depth + 1, "step", sl->step);
    } else {
      line(depth, fmt::format("{} {}", head, l));
    }
  }
};

}  // namespace

std::string printAst(const Module &module, const SourceManager &sm) {
  Printer p;
  p.out = fmt::format("Module '{}'\n", sm.name(module.file));
  p.stmts(module.body, 1);
  return p.out;
}

}  // namespace cake
