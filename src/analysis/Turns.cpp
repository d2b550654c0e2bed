// Turns: see Turns.h.
#include "analysis/Turns.h"

#include <algorithm>
#include <tuple>

#include "analysis/KernelFacts.h"
#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

std::optional<Turns> turnsOf(const Kernel &k, const std::vector<const Event *> &uses,
                             const std::set<ResourceId> &roles) {
  if (roles.size() < 2) return std::nullopt;
  // A wait on the stage the role's previous use of the barrier just waited
  // for, in the same iteration, waits for no further phase: one role
  // repeating a wait its turn partners make once still takes turns alike.
  std::map<ResourceId, std::vector<const Event *>> byRole;
  for (const Event *e : uses) {
    std::vector<const Event *> &es = byRole[e->role];
    auto waitsOn = [](const Event &x) { return x.op->info().effects.waits != kNone; };
    if (!es.empty() && waitsOn(*e) && waitsOn(*es.back()) && es.back()->loops == e->loops &&
        es.back()->guarded == e->guarded && !e->conditional &&
        sameStage(k, stageOperand(*es.back()->op), stageOperand(*e->op)))
      continue;
    es.push_back(e);
  }
  Turns t;
  t.step = static_cast<int64_t>(roles.size());
  std::vector<std::pair<int64_t, ResourceId>> starts;  // (start - first role's start, role)
  const std::vector<const Event *> *model = nullptr;
  std::optional<AffineForm> stop, first;
  for (const auto &[role, es] : byRole) {
    const IrStmt *L = es.front()->loops.empty() ? nullptr : es.front()->loops.front();
    if (!L || L->step != t.step || L->start.ix == kNoIntExpr || L->stop.ix == kNoIntExpr) return std::nullopt;
    for (const Event *e : es)
      if (e->loops.empty() || e->loops.front() != L || e->conditional || e->alternative) return std::nullopt;
    AffineForm st = k.ints.form(L->start.ix), sp = k.ints.form(L->stop.ix);
    if (!stop) {
      stop = sp;
      first = st;
      model = &es;
    }
    if (sp != *stop) return std::nullopt;
    auto d = IntExprTable::constantDifference(st, *first);
    if (!d) return std::nullopt;
    starts.emplace_back(*d, role);
    // The same uses in the same nest: the same operations, inner loops with
    // equal bounds, and stage forms equal once each loop variable is named
    // by its depth in the nest.
    if (es.size() != model->size()) return std::nullopt;
    for (size_t i = 0; i < es.size(); ++i) {
      const Event &x = *es[i], &m = *(*model)[i];
      if (&x.op->info() != &m.op->info() || x.loops.size() != m.loops.size() || x.guarded != m.guarded)
        return std::nullopt;
      for (size_t l = 1; l < x.loops.size(); ++l)
        if (!sameBound(k, x.loops[l]->start, m.loops[l]->start) || !sameBound(k, x.loops[l]->stop, m.loops[l]->stop) ||
            x.loops[l]->step != m.loops[l]->step)
          return std::nullopt;
      // (offset, coefficient by depth, the run-time coefficient and its depth)
      using Shape = std::tuple<AffineForm, std::vector<int64_t>, std::optional<std::pair<size_t, AffineForm>>>;
      auto byDepth = [&](const Event &e) -> std::optional<Shape> {
        StageForm sf = stageForm(k, stageOperand(*e.op), /*allowScaled=*/true);
        if (!sf.ok) return std::nullopt;
        auto depthOf = [&](uint32_t id) -> std::optional<size_t> {
          auto it = std::find_if(e.loops.begin(), e.loops.end(), [id](const IrStmt *l) { return l->loopId == id; });
          if (it == e.loops.end()) return std::nullopt;
          return static_cast<size_t>(it - e.loops.begin());
        };
        std::vector<int64_t> coeffs(e.loops.size(), 0);
        for (const auto &[id, c] : sf.loops) {
          auto d = depthOf(id);
          if (!d) return std::nullopt;
          coeffs[*d] = c;
        }
        std::optional<std::pair<size_t, AffineForm>> scaled;
        if (sf.scaledLoop) {
          auto d = depthOf(sf.scaledLoop->first);
          if (!d) return std::nullopt;
          scaled = std::make_pair(*d, sf.scaledLoop->second);
        }
        return Shape{sf.offset, coeffs, scaled};
      };
      auto fx = byDepth(x), fm = byDepth(m);
      if (!fx || !fm || *fx != *fm) return std::nullopt;
    }
  }
  std::sort(starts.begin(), starts.end());
  for (size_t i = 0; i < starts.size(); ++i)
    if (starts[i].first != starts.front().first + static_cast<int64_t>(i)) return std::nullopt;
  t.start = *first;
  t.start.constant = satAdd(t.start.constant, starts.front().first);
  for (const auto &[d, role] : starts) {
    t.roles.push_back(role);
    t.loop[role] = byRole[role].front()->loops.front();
  }
  return t;
}

bool turnsOver(const BarrierFacts &bf, ResourceId role, const IrStmt *O, bool waits) {
  const std::optional<Turns> &t = waits ? bf.waitTurns : bf.signalTurns;
  return t && t->has(role) && t->loop.at(role) == O;
}

bool consumedBy(const Kernel &k, const BarrierFacts &f, ResourceId b, ResourceId signaller, ResourceId waiter) {
  // With credits for one turn (count 1) a wait takes the previous turn's
  // signal; with more, one further back: not modelled, any waiter may.
  if (!f.signalTurns || !f.waitTurns || f.signalTurns->roles != f.waitTurns->roles || !f.signalTurns->has(signaller) ||
      k.resources[b].count != 1)
    return true;
  const std::vector<ResourceId> &rs = f.signalTurns->roles;
  size_t i = static_cast<size_t>(std::find(rs.begin(), rs.end(), signaller) - rs.begin());
  return rs[(i + 1) % rs.size()] == waiter;
}

bool blocksAfterCredits(const Kernel &k, const BarrierFacts &f, ResourceId b, ResourceId signaller, ResourceId waiter) {
  if (!f.signalTurns || !f.waitTurns || f.signalTurns->roles != f.waitTurns->roles || k.resources[b].count != 1 ||
      !f.signalTurns->has(signaller) || !f.waitTurns->has(waiter) || !consumedBy(k, f, b, signaller, waiter))
    return false;
  const std::vector<ResourceId> &rs = f.waitTurns->roles;
  auto position = static_cast<int64_t>(std::find(rs.begin(), rs.end(), waiter) - rs.begin());
  return position >= k.resources[b].count;  // credits = count on a release barrier
}

bool ordersItself(const Kernel &k, ResourceId b, const BarrierFacts &use, ResourceId R, const IrStmt *LR,
                  const Event &firstWait, size_t n) {
  if (!use.signalTurns || !use.signalTurns->has(R)) return false;
  StageForm w = stageForm(k, stageOperand(*firstWait.op));
  if (!w.ok || w.loops.size() != 1 || w.loops[0].first != LR->loopId) return false;
  int64_t a = w.loops[0].second, count = k.resources[b].count;
  int64_t credits = use.release ? count : 0;
  for (const Event *sg : use.signals) {
    if (sg->role != R || sg->loops.size() != 1 || sg->loops.front() != LR || sg->conditional || sg->guarded ||
        sg->alternative)
      continue;
    StageForm g = stageForm(k, stageOperand(*sg->op));
    if (!g.ok || g.loops.size() != 1 || g.loops[0].first != LR->loopId || g.loops[0].second != a) continue;
    if (IntExprTable::constantDifference(w.offset, g.offset) ==
        satAdd(satAdd(credits, count), satMul(satMul(a, static_cast<int64_t>(n)), -1)))
      return true;
  }
  return false;
}

bool ordersTurn(const Kernel &k, const KernelFacts &f, ResourceId R, const IrStmt *LR, const Event &firstWait,
                ResourceId P, const IrStmt *LP, const Event &lastWaitP, ResourceId b) {
  auto plain = [](const Event &e, const IrStmt *L) {
    return e.loops.size() == 1 && e.loops.front() == L && !e.conditional && !e.guarded && !e.alternative;
  };
  for (const RoleEvents &rr : f.roles)
    for (const Event &wo : rr.events) {
      ResourceId O = effectResource(*wo.op, wo.op->info().effects.waits);
      if (wo.role != R || O == kNoResource || O == b || wo.index >= firstWait.index || !plain(wo, LR)) continue;
      StageForm w = stageForm(k, stageOperand(*wo.op));
      if (!w.ok || w.loops.size() != 1 || w.loops[0].first != LR->loopId) continue;
      int64_t credits = f.barrier(O).release ? k.resources[O].count : 0;
      for (const RoleEvents &pr : f.roles)
        for (const Event &sg : pr.events) {
          if (sg.role != P || effectResource(*sg.op, sg.op->info().effects.signals) != O ||
              sg.index <= lastWaitP.index || !plain(sg, LP))
            continue;
          StageForm g = stageForm(k, stageOperand(*sg.op));
          if (!g.ok || g.loops.size() != 1 || g.loops[0].first != LP->loopId || g.loops[0].second != w.loops[0].second)
            continue;
          // w(j) - credits == g(j - 1): the offsets differ by credits - coefficient.
          if (IntExprTable::constantDifference(w.offset, g.offset) == satAdd(credits, satMul(w.loops[0].second, -1)))
            return true;
        }
    }
  return false;
}

}  // namespace cake::analysis
