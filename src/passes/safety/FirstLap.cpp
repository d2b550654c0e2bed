// FirstLap: see FirstLap.h.
#include "passes/safety/FirstLap.h"

#include <algorithm>
#include <functional>
#include <set>

namespace cake::passes::safety {

std::optional<int64_t> FirstLap::tripsOf(const IrStmt *l) {
  return l->start.constInt && l->stop.constInt && l->step > 0
             ? std::optional<int64_t>(
                   std::max<int64_t>(0, (*l->stop.constInt - *l->start.constInt + l->step - 1) / l->step))
             : std::nullopt;
}

// Whether role `role`'s waits on `b` that run before event `until` first
// does all pass on the first lap: `b` is a release barrier, whose stages
// 0 .. count - 1 are free, and every such wait names a stage below count
// over the iterations that run before `until` (maxStageBefore).
bool FirstLap::firstLapPasses(ResourceId role, ResourceId b, const Event &until) const {
  if (!facts_.barrier(b).release) return false;
  for (const RoleEvents &r : roles_)
    if (r.role == role)
      for (const Event &e : r.events) {
        if (effectResource(*e.op, e.op->info().effects.waits) != b) continue;
        bool runs = false;
        std::optional<int64_t> m = maxStageBefore(e, until, runs);
        if (runs && m && *m >= k_.resources[b].count) return false;
      }
  return true;
}

// The largest stage wait `e` names before event `until` of its role
// first runs (`runs`: whether it runs before at all), over the loop
// variables' values by then: a loop around both at its first iteration,
// or, where `until` is guarded in it, up to the iteration its guard first
// holds; a loop around `e` alone over all its iterations; `e`'s own
// guard's iterations. nullopt where that is not a constant.
std::optional<int64_t> FirstLap::maxStageBefore(const Event &e, const Event &until, bool &runs) const {
  size_t common = 0;
  while (common < e.loops.size() && common < until.loops.size() && e.loops[common] == until.loops[common]) ++common;
  // Earlier iterations of until's guarded innermost loop run all of it.
  const IrStmt *G = until.guarded && !until.loops.empty() && common > 0 && e.loops[common - 1] == until.loops.back()
                        ? until.loops.back()
                        : nullptr;
  std::optional<int64_t> gd;
  if (G && G->start.ix != kNoIntExpr) gd = IntExprTable::constantDifference(until.first, k_.ints.form(G->start.ix));
  bool before = e.index < until.index;
  runs = before || (G && gd && *gd > 0) || (G && !gd);
  if (!runs) return std::nullopt;
  bool known = false;
  AffineForm f = formOf(k_, stageOperand(*e.op), known);
  if (!known) return std::nullopt;
  // Each loop variable's range by then: [lo, hi].
  std::vector<std::pair<AffineForm, AffineForm>> range;
  for (size_t i = 0; i < e.loops.size(); ++i) {
    const IrStmt *l = e.loops[i];
    if (l->start.ix == kNoIntExpr || l->stop.ix == kNoIntExpr || l->step <= 0) return std::nullopt;
    AffineForm lo = k_.ints.form(l->start.ix);
    std::optional<AffineForm> hi = IntExprTable::combine(k_.ints.form(l->stop.ix), AffineForm{1, {}}, -1);
    if (i < common && l != G) {
      hi = lo;  // the first iteration of a loop around both
    } else if (l == G) {
      if (!gd) return std::nullopt;
      hi = IntExprTable::combine(lo, AffineForm{*gd - (before ? 0 : l->step), {}}, 1);
    }
    if (e.guarded && i + 1 == e.loops.size()) {  // its guard's iterations
      lo = e.first;
      std::optional<AffineForm> last = IntExprTable::combine(e.end, AffineForm{1, {}}, -1);
      if (!last || !hi) return std::nullopt;
      std::optional<int64_t> below = IntExprTable::constantDifference(*hi, *last);
      if (!below || *below > 0) hi = last;
    }
    if (!hi) return std::nullopt;
    range.emplace_back(lo, *hi);
  }
  // The stage is linear in each variable (a product with a run-time
  // count included: `j * k_steps`), so its largest value is at a corner
  // of the ranges; products are multiplied out to substitute into them.
  std::optional<PolyForm> poly = k_.ints.expandProducts(f);
  if (!poly) return std::nullopt;
  std::optional<int64_t> best;
  std::function<bool(size_t, const PolyForm &)> corner = [&](size_t i, const PolyForm &g) {
    if (i == range.size()) {
      if (!g.isConstant()) return false;
      best = best ? std::max(*best, g.constant()) : g.constant();
      return true;
    }
    for (int side = 0; side < 2; ++side) {
      if (side == 1 && range[i].first == range[i].second) break;
      std::optional<PolyForm> h = substituteLoop(g, e.loops[i]->loopId, side ? range[i].second : range[i].first);
      if (!h || !corner(i + 1, *h)) return false;
    }
    return true;
  };
  if (!corner(0, *poly)) return std::nullopt;
  return best;
}

// The stage of role `q`'s first signal of `b` (every loop variable at its
// loop's start), where that is a constant.
std::optional<int64_t> FirstLap::firstSignalStage(ResourceId q, ResourceId b) const {
  std::optional<int64_t> least;
  for (const RoleEvents &r : roles_)
    if (r.role == q)
      for (const Event &e : r.events) {
        if (effectResource(*e.op, e.op->info().effects.signals) != b) continue;
        bool known = false;
        AffineForm f = formOf(k_, stageOperand(*e.op), known);
        std::optional<PolyForm> p = known ? k_.ints.expandProducts(f) : std::nullopt;
        for (const IrStmt *l : e.loops) {
          if (!p || l->start.ix == kNoIntExpr) return std::nullopt;
          p = substituteLoop(*p, l->loopId, e.guarded && l == e.loops.back() ? e.first : k_.ints.form(l->start.ix));
        }
        if (!p || !p->isConstant()) return std::nullopt;
        least = least ? std::min(*least, p->constant()) : p->constant();
      }
  return least;
}

// `p` with loop `loopId`'s variable replaced by `value`.
std::optional<PolyForm> FirstLap::substituteLoop(const PolyForm &p, uint32_t loopId, const AffineForm &value) const {
  std::optional<PolyForm> v = k_.ints.expandProducts(value);
  if (!v) return std::nullopt;
  std::optional<PolyForm> out = p;
  std::set<AtomId> vars;
  for (const auto &[mono, coef] : p.terms)
    for (AtomId a : mono)
      if (k_.ints.atomIsLeaf(a, IntOp::LoopVar) && static_cast<uint32_t>(k_.ints.atomValue(a)) == loopId)
        vars.insert(a);
  for (AtomId a : vars)
    if (!(out = IntExprTable::substituteAtom(*out, a, *v))) return std::nullopt;
  return out;
}

}  // namespace cake::passes::safety
