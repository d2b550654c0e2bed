// Expressions.cpp - run-time integer and boolean expressions, in the kernel
// and in the host launcher.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <set>
#include <tuple>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

using cake::ast::BinaryOp;
using cake::ast::NodeKind;

// ---------------------------------------------------------------------------
// expressions

// A number as CUDA float source: infinities by name (fmt writes "inf").
static std::string floatSource(double x) {
  if (std::isinf(x)) return x > 0 ? "INFINITY" : "(-INFINITY)";
  if (std::isnan(x)) return "NAN";
  return fmt::format("static_cast<float>({})", x);
}

std::string KernelEmitter::value(const Value &v, bool host) {
  if (v.isConstInt()) return std::to_string(*v.constInt);
  if (v.kind == ValueKind::Int && v.ix != kNoIntExpr)
    if (std::optional<std::string> x = intExpr(v.ix, host)) return *x;
  if (v.kind == ValueKind::Bool && v.boolIsConst) return v.constBool ? "true" : "false";
  if (v.kind == ValueKind::Float && (v.floatIsConst || !v.expr)) return floatSource(v.floatValue);
  return expr(v.expr, host);
}

std::string KernelEmitter::expr(const ast::Expr *e, bool host) {
  if (!e) return "0";
  auto it = k_.exprValues.find(e);
  if (it != k_.exprValues.end()) {
    const Value &v = it->second;
    if (v.isConstInt()) {
      int64_t c = *v.constInt;
      if (c < INT32_MIN || c > INT32_MAX) {
        diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                      fmt::format("the constant {} does not fit the 32-bit integers of lowered code", c));
        return "0";
      }
      return std::to_string(c);
    }
    if (v.kind == ValueKind::Int && v.ix != kNoIntExpr)
      if (std::optional<std::string> x = intExpr(v.ix, host)) return *x;
    if (v.kind == ValueKind::Bool && v.boolIsConst) return v.constBool ? "true" : "false";
    if (v.kind == ValueKind::Float && v.floatIsConst) return floatSource(v.floatValue);
    // A 16- or 8-bit float scalar computes as a float (CUDA's operators on
    // __nv_bfloat16 and float are ambiguous).
    if (v.kind == ValueKind::Float && e->kind == NodeKind::NameExpr && v.resource != kNoResource &&
        k_.resource(v.resource).kind == ResourceKind::ScalarParam && k_.resource(v.resource).dtype != DType::F32)
      return fmt::format("static_cast<float>({})", ident(k_.resource(v.resource).name));
  }
  switch (e->kind) {
  case NodeKind::NameExpr: {
    // A name bound by assignment stands for its expression; loop variables
    // and parameters are variables of the generated code.
    // In the kernel, a name bound by assignment is a variable (a Let); the
    // launcher, which has none, computes its expression.
    auto def = k_.nameDefs.find(e);
    if (host && def != k_.nameDefs.end() && def->second != e) return "(" + expr(def->second, host) + ")";
    return ident(static_cast<const ast::NameExpr *>(e)->name);
  }
  case NodeKind::IntLit: return std::to_string(static_cast<const ast::IntLit *>(e)->value);
  case NodeKind::FloatLit: return floatSource(static_cast<const ast::FloatLit *>(e)->value);
  case NodeKind::BoolLit: return static_cast<const ast::BoolLit *>(e)->value ? "true" : "false";
  case NodeKind::UnaryExpr: {
    const auto *u = static_cast<const ast::UnaryExpr *>(e);
    std::string x = expr(u->operand, host);
    switch (u->op) {
    case ast::UnaryOp::Neg: return "(-" + x + ")";
    case ast::UnaryOp::Pos: return x;
    case ast::UnaryOp::Not: return "(!" + x + ")";
    }
    return x;
  }
  case NodeKind::BinaryExpr: {
    const auto *b = static_cast<const ast::BinaryExpr *>(e);
    std::string l = expr(b->lhs, host), r = expr(b->rhs, host);
    if (host && hostDivisors_ && (b->op == BinaryOp::FloorDiv || b->op == BinaryOp::Mod)) {
      auto rv = k_.exprValues.find(b->rhs);
      bool constant = (rv != k_.exprValues.end() && rv->second.isConstInt()) || b->rhs->kind == NodeKind::IntLit;
      if (!constant) hostDivisors_->emplace_back(r, sourceText(sm_, b->rhs->range));
    }
    switch (b->op) {
    case BinaryOp::FloorDiv: return intOpCuda(IntOp::FloorDiv, l, r);
    case BinaryOp::Mod: return intOpCuda(IntOp::Mod, l, r);
    case BinaryOp::Pow:
    case BinaryOp::Div:
      diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                    "only '+', '-', '*', '//', '%' and comparisons are lowered for run-time integers");
      return "0";
    case BinaryOp::And: return "(" + l + " && " + r + ")";
    case BinaryOp::Or: return "(" + l + " || " + r + ")";
    default: return "(" + l + " " + ast::binaryOpSpelling(b->op) + " " + r + ")";
    }
  }
  case NodeKind::CallExpr: {
    // A value operation (lm.block_id(0), lm.min(a, b), ...): what it yields
    // is its expression node, made by sema from the table's value effect.
    const auto *c = static_cast<const ast::CallExpr *>(e);
    auto cv = k_.exprValues.find(e);
    if (cv == k_.exprValues.end() || cv->second.ix == kNoIntExpr) break;
    const IntNode &n = k_.ints.node(cv->second.ix);
    const IntOpInfo &info = intOpInfo(n.op);
    if (!info.cuda) break;  // not what a call yields
    if (info.has(kCall)) {  // lm.min, lm.max
      std::vector<const ast::Expr *> args(c->args.begin(), c->args.end());
      for (const ast::Keyword &kw : c->keywords) args.push_back(kw.value);
      if (args.size() != 2) break;
      // Keyword order does not matter: min and max are symmetric.
      std::string a = expr(args[0], host), b = expr(args[1], host);
      return intOpCuda(n.op, a, b);
    }
    if (info.arity != 0) break;  // an operator, not a call
    if (info.place == IntPlace::Host && !host) {
      diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                    "the multiprocessor count is the launcher's; in the kernel, use lm.num_blocks(0)");
      return "0";
    }
    if (info.place == IntPlace::Kernel && host) {
      diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                    "the launcher computes the grid before any block exists");
      return "0";
    }
    if (info.place == IntPlace::Host) usesSmCount_ = true;  // the launcher's one value: its multiprocessor count
    static const char *dims = "xyz";
    size_t d = n.value >= 0 && n.value <= 2 ? static_cast<size_t>(n.value) : 0;
    return fmt::format(fmt::runtime(info.cuda), dims[d], info.wrapper ? w_.use(info.wrapper) : std::string());
  }
  default: break;
  }
  diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                "it is not an integer expression of loop variables, parameters and block indices");
  return "0";
}

// An integer from its node: a leaf by its name or as IntOps.def spells it,
// a named value (a Let) by its name in the kernel and by its expression in
// the launcher, an operation as IntOps.def spells it. Nullopt where it is
// not lowered (a constant past 32 bits, a power, an index in the launcher,
// the multiprocessor count in the kernel): the caller lowers it from the
// AST, which reports why at the offending subexpression.
std::optional<std::string> KernelEmitter::intExpr(IntExprId x, bool host) {
  const IntNode &n = k_.ints.node(x);
  const IntOpInfo &info = intOpInfo(n.op);
  if (n.op == IntOp::Const) {
    if (n.value < INT32_MIN || n.value > INT32_MAX) return std::nullopt;
    return std::to_string(n.value);
  }
  if (n.op == IntOp::LoopVar || n.op == IntOp::Param) return ident(k_.leafText(n));
  if (n.op == IntOp::RoleValue) return host ? std::nullopt : std::optional(fmt::format("cake_rv{}", n.value));
  if (n.op == IntOp::Let) {
    if (!host) return ident(k_.intText(x));
    std::optional<std::string> value = intExpr(n.a, host);
    return value ? std::optional("(" + *value + ")") : std::nullopt;
  }
  if (!info.cuda || (info.place == IntPlace::Kernel && host) || (info.place == IntPlace::Host && !host))
    return std::nullopt;
  if (info.arity == 0) {
    if (info.place == IntPlace::Host) usesSmCount_ = true;  // the launcher's one value: its multiprocessor count
    static const char *dims = "xyz";
    size_t d = n.value >= 0 && n.value <= 2 ? static_cast<size_t>(n.value) : 0;
    return fmt::format(fmt::runtime(info.cuda), dims[d], info.wrapper ? w_.use(info.wrapper) : std::string());
  }
  std::optional<std::string> a = intExpr(n.a, host);
  if (!a) return std::nullopt;
  if (info.arity == 1) return intOpCuda(n.op, *a);
  std::optional<std::string> b = intExpr(n.b, host);
  if (!b) return std::nullopt;
  if (host && hostDivisors_ && info.has(kDivides) && k_.ints.node(n.b).op != IntOp::Const)
    hostDivisors_->emplace_back(*b, intSource(n.b));
  return intOpCuda(n.op, *a, *b);
}

std::string KernelEmitter::intSource(IntExprId x) {
  if (intSources_.empty()) {
    auto before = [](const SourceRange &a, const SourceRange &b) {
      return std::tie(a.begin.file, a.begin.line, a.begin.col, a.end.line, a.end.col) <
             std::tie(b.begin.file, b.begin.line, b.begin.col, b.end.line, b.end.col);
    };
    for (const auto &[e, v] : k_.exprValues) {
      if (v.kind != ValueKind::Int || v.ix == kNoIntExpr || !e->range.valid()) continue;
      auto [it, fresh] = intSources_.emplace(v.ix, e);
      if (!fresh && before(e->range, it->second->range)) it->second = e;
    }
  }
  auto it = intSources_.find(x);
  return it != intSources_.end() ? sourceText(sm_, it->second->range) : k_.intText(x);
}

std::string KernelEmitter::intOpCuda(IntOp op, const std::string &a, const std::string &b) {
  const IntOpInfo &info = intOpInfo(op);
  CAKE_CHECK(info.arity != 0 && info.cuda, "'" + std::string(info.name) + "' is not a lowered operation");
  return fmt::format(fmt::runtime(info.cuda), a, b, info.wrapper ? w_.use(info.wrapper) : std::string());
}

std::string KernelEmitter::divisorChecks(const std::function<void()> &render,
                                         const std::function<std::string(const std::string &)> &onZero) {
  std::vector<std::pair<std::string, std::string>> divisors;
  hostDivisors_ = &divisors;
  render();
  hostDivisors_ = nullptr;
  std::string o;
  std::set<std::string> seen;
  for (const auto &[text, source] : divisors)
    if (seen.insert(text).second) o += fmt::format("  if ({} == 0) {}\n", asOperand(text), onZero(source));
  return o;
}

}  // namespace cake::codegen::detail
