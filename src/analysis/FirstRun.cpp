// FirstRun: the value of an operation's boolean operand on the first run of
// its loops (valueOnFirstRun, ScheduleModel.h): each loop's variable at its
// first value, where the inner loops run there.
#include "analysis/ScheduleModel.h"

#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

namespace {
// An integer node's value with each enclosing loop's variable at a constant
// first value; other leaves are unknown, except where the operation does not
// need them (0 * x, 0 // x, 0 % x, min/max are not folded).
std::optional<int64_t> evalAtFirstRun(const Kernel &k, const Event &e, IntExprId id, int depth = 0) {
  if (id == kNoIntExpr || depth > 64) return std::nullopt;
  const IntNode &n = k.ints.node(id);
  auto fold = [&](std::optional<int64_t> a, std::optional<int64_t> b) -> std::optional<int64_t> {
    return a && b ? foldInt(n.op, *a, *b) : std::nullopt;
  };
  switch (n.op) {
  case IntOp::Const: return n.value;
  case IntOp::LoopVar:
    for (const IrStmt *l : e.loops)
      if (static_cast<int64_t>(l->loopId) == n.value) {
        if (l == e.loops.back() && e.guarded)
          return e.first.isConstant() ? std::optional(e.first.constant) : std::nullopt;
        return l->start.constInt;
      }
    return std::nullopt;
  case IntOp::Param:
  case IntOp::BlockId:
  case IntOp::NumBlocks:
  case IntOp::ClusterRank:
  case IntOp::ClusterId:
  case IntOp::NumClusters:
  case IntOp::ClusterBlock:
  case IntOp::SmCount:
  case IntOp::RoleValue:
  case IntOp::Min:
  case IntOp::Max:
  case IntOp::Pow: return std::nullopt;
  case IntOp::Let: return evalAtFirstRun(k, e, n.a, depth);  // a name is its value
  case IntOp::Neg: return fold(evalAtFirstRun(k, e, n.a, depth + 1), 0);
  case IntOp::Add:
  case IntOp::Sub: return fold(evalAtFirstRun(k, e, n.a, depth + 1), evalAtFirstRun(k, e, n.b, depth + 1));
  case IntOp::Mul:
  case IntOp::FloorDiv:
  case IntOp::Mod: {
    auto a = evalAtFirstRun(k, e, n.a, depth + 1), b = evalAtFirstRun(k, e, n.b, depth + 1);
    if (a == 0 || (n.op == IntOp::Mul && b == 0)) return 0;  // whatever the other side (a divisor of 0 faults anyway)
    return fold(a, b);
  }
  }
  return std::nullopt;
}

}  // namespace

// Whether the first run of `e` is at every enclosing loop's first value: each
// inner loop runs at least once at its outer loops' first values, or has
// bounds no loop variable moves (then it runs in every iteration of the
// others or in none). A triangular nest (`for m in range(0, t)` inside
// `for t in range(0, T)`) runs nothing at t = 0: the first run is later.
bool innerLoopsRunFirst(const Kernel &k, const Event &e) {
  for (size_t i = 1; i < e.loops.size(); ++i) {
    const IrStmt &loop = *e.loops[i];
    std::optional<AffineForm> start = boundForm(k, loop.start), stop = boundForm(k, loop.stop);
    if (!start || !stop) return false;
    if (!k.ints.dependsOnLoop(*start) && !k.ints.dependsOnLoop(*stop)) continue;
    for (size_t o = i; o-- > 0;) {  // innermost first: an outer loop's start may name a loop around it
      std::optional<AffineForm> first = boundForm(k, e.loops[o]->start);
      if (!first) return false;
      std::optional<AffineForm> a = k.ints.substituteLoopVar(*start, e.loops[o]->loopId, *first),
                                b = k.ints.substituteLoopVar(*stop, e.loops[o]->loopId, *first);
      if (!a || !b) return false;
      start = a, stop = b;
    }
    std::optional<int64_t> trips = IntExprTable::constantDifference(*stop, *start);
    if (!trips || *trips <= 0) return false;
  }
  return true;
}

std::optional<bool> valueOnFirstRun(const Kernel &k, const Event &e, const Value &v) {
  if (v.kind != ValueKind::Bool) return std::nullopt;
  if (v.boolIsConst) return v.constBool;
  // `and`, `or` and `not` of run-time booleans: their operands (sema keeps them).
  if (v.cmp == CmpOp::None && !v.elts.empty()) {
    std::optional<bool> a = valueOnFirstRun(k, e, v.elts[0]);
    if (v.str == "not" && v.elts.size() == 1) return a ? std::optional<bool>(!*a) : std::nullopt;
    if (v.elts.size() != 2 || (v.str != "and" && v.str != "or")) return std::nullopt;
    std::optional<bool> b = valueOnFirstRun(k, e, v.elts[1]);
    bool any = v.str == "or";  // the value that decides alone
    if (a == any || b == any) return any;
    if (a && b) return !any;
    return std::nullopt;
  }
  if (v.cmp == CmpOp::None || v.ix == kNoIntExpr) return std::nullopt;
  // Substitute each enclosing loop's variable by its first value.
  if (!innerLoopsRunFirst(k, e)) return std::nullopt;
  AffineForm rest = k.ints.form(v.ix);
  for (const IrStmt *loop : e.loops) {
    std::optional<AffineForm> first = loop == e.loops.back() && e.guarded ? e.first : boundForm(k, loop->start);
    if (!first) return std::nullopt;
    std::optional<AffineForm> sub = k.ints.substituteLoopVar(rest, loop->loopId, *first);
    if (!sub) return std::nullopt;
    rest = *sub;
  }
  if (rest.isConstant()) return holds(v.cmp, rest.constant);
  // Non-linear terms (s % k_steps == 0): evaluate the expression itself.
  if (auto x = evalAtFirstRun(k, e, v.ix)) return holds(v.cmp, *x);
  return std::nullopt;
}

}  // namespace cake::analysis
