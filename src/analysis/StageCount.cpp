// StageCount: see StageCount.h.
#include "analysis/StageCount.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/KernelFacts.h"
#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

ResourceId barrierOf(const Event &e) {
  const OpEffects &fx = e.op->info().effects;
  ResourceId b = effectResource(*e.op, fx.waits);
  return b != kNoResource ? b : effectResource(*e.op, fx.signals);
}

AffineForm plusConstant(const AffineForm &f, int64_t n) {
  AffineForm g = f;
  g.constant = satAdd(g.constant, n);
  return g;
}

namespace {

// |d| for messages (INT64_MIN, from adversarial constants, as INT64_MAX).
int64_t magnitude(int64_t d) { return d >= 0 ? d : d == INT64_MIN ? INT64_MAX : -d; }

class StageCounter {
public:
  // `f`: the barrier facts, which only regionOf reads (null otherwise).
  StageCounter(const Kernel &k, const SourceManager &sm, const KernelFacts *f) : k_(k), sm_(sm), facts_(f) {}

  LinearStage linearStage(const StageRef &s, const Event &ev) const {
    return linearStageOf(stageForm(k_, s, /*allowScaled=*/true), ev);
  }
  LinearStage linearStageOf(const StageForm &f, const Event &ev) const {
    if (!f.ok) return {};
    if (!f.hasLoop()) return {nullptr, 0, 0, 0, f.offset, true, {}, {}};
    std::vector<std::pair<size_t, int64_t>> at;  // (position in ev.loops, coefficient)
    auto position = [&](uint32_t id) -> std::optional<size_t> {
      auto it = std::find_if(ev.loops.begin(), ev.loops.end(), [id](const IrStmt *l) { return l->loopId == id; });
      if (it == ev.loops.end()) return std::nullopt;  // a loop variable used outside its loop (a Let that escaped it)
      return static_cast<size_t>(it - ev.loops.begin());
    };
    for (const auto &term : f.loops) {
      auto p = position(term.first);
      if (!p) return {};
      at.emplace_back(*p, term.second);
    }
    std::sort(at.begin(), at.end());
    if (f.scaledLoop) return scaledStageOf(f, ev, at, position);
    LinearStage ls{ev.loops[at.front().first], at.size(), at.back().second, at.front().second, f.offset, true, {}, {}};
    for (size_t i = 0; i + 1 < at.size(); ++i) {
      const IrStmt &inner = *ev.loops[at[i + 1].first];
      bool guardedInner = ev.guarded && at[i + 1].first + 1 == ev.loops.size();
      if (at[i + 1].first != at[i].first + 1 || guardedInner || inner.step != 1 || !inner.start.constInt ||
          !inner.stop.constInt)
        return {};
      int64_t span;
      if (__builtin_sub_overflow(*inner.stop.constInt, *inner.start.constInt, &span)) return {};
      int64_t trips = std::max<int64_t>(0, span);
      if (at[i].second != satMul(at[i + 1].second, trips) && ls.notRunning.empty())
        ls.notRunning = fmt::format(
            "its coefficient of '{}' is {}, but one iteration of the loop over '{}' runs through {} stage(s), so "
            "stages {} across its iterations",
            ev.loops[at[i].first]->loopVar, at[i].second, inner.loopVar, satMul(at[i + 1].second, trips),
            at[i].second < satMul(at[i + 1].second, trips) ? "repeat" : "are skipped");
      ls.offset.constant = satAdd(ls.offset.constant, satMul(at[i + 1].second, *inner.start.constInt));
    }
    return ls;
  }
  // `X * t + c * k + offset` for t's loop directly around k's, k's loop of
  // step 1 from a constant: one running count when X = c * (k's stop -
  // k's start) as normal forms; skipping or repeating stages when they
  // differ by a constant; not proven otherwise (not ok).
  template <typename Position>
  LinearStage scaledStageOf(const StageForm &f, const Event &ev, const std::vector<std::pair<size_t, int64_t>> &at,
                            const Position &position) const {
    auto outer = position(f.scaledLoop->first);
    if (!outer || at.size() != 1 || at[0].first != *outer + 1) return {};
    const IrStmt &O = *ev.loops[*outer], &inner = *ev.loops[at[0].first];
    bool guardedInner = ev.guarded && at[0].first + 1 == ev.loops.size();
    if (guardedInner || inner.step != 1 || !inner.start.constInt || inner.stop.ix == kNoIntExpr) return {};
    int64_t c = at[0].second;
    AffineForm startForm;
    startForm.constant = *inner.start.constInt;
    auto span = IntExprTable::combine(k_.ints.form(inner.stop.ix), startForm, -1);
    auto run = span ? IntExprTable::combine(AffineForm{}, *span, c) : std::nullopt;  // stages one iteration of O runs
    if (!run) return {};
    auto d = IntExprTable::constantDifference(f.scaledLoop->second, *run);
    if (!d) return {};
    LinearStage ls{&O, 2, c, 0, f.offset, true, {}, f.scaledLoop->second};
    ls.offset.constant = satAdd(ls.offset.constant, satMul(c, *inner.start.constInt));
    if (*d != 0)
      ls.notRunning =
          fmt::format("its coefficient of '{}' differs by {} from the {} stage(s) one iteration of the loop "
                      "over '{}' runs through, so stages {} across its iterations",
                      O.loopVar, *d, inner.stop.expr ? sourceText(sm_, inner.stop.expr->range) : "its", inner.loopVar,
                      *d < 0 ? "repeat" : "are skipped");
    return ls;
  }

  // A loop of roles taking turns steps by their number: its iterations are
  // the role's share of the count, which the sequence check reads.
  std::optional<Region> regionOf(const RoleEvents &r, ResourceId b, const IrStmt *O) const {
    Region rg;
    rg.loop = O;
    std::optional<AffineForm> next;
    const Event *prev = nullptr;
    AffineForm prevInner;
    std::map<const IrStmt *, AffineForm> seenLoops;  // inner loop -> the stage its uses name
    for (const Event &e : r.events) {
      const OpEffects &fx = e.op->info().effects;
      ResourceId used = effectResource(*e.op, fx.waits);
      bool waits = used != kNoResource;
      if (!waits) used = effectResource(*e.op, fx.signals);
      if (used != b || e.loops.empty() || e.loops.front() != O) continue;
      if (e.alternative) continue;
      if (e.conditional || (O->step != 1 && !turnsOver(facts_->barrier(b), r.role, O, waits))) return std::nullopt;
      StageForm f = stageForm(k_, stageOperand(*e.op), /*allowScaled=*/true);
      if (!f.ok) return std::nullopt;
      if (f.scaledLoop && f.scaledLoop->first == O->loopId) {
        if ((rg.coeff != 0) || (rg.coeffScaled && *rg.coeffScaled != f.scaledLoop->second)) return std::nullopt;
        rg.coeffScaled = f.scaledLoop->second;
        f.scaledLoop.reset();
      } else {
        auto term = std::find_if(f.loops.begin(), f.loops.end(), [&](const auto &t) { return t.first == O->loopId; });
        if (term == f.loops.end() || rg.coeffScaled || (rg.coeff != 0 && term->second != rg.coeff) || term->second <= 0)
          return std::nullopt;
        rg.coeff = term->second;
        f.loops.erase(term);
      }
      if (f.scaledLoop) return std::nullopt;  // a run-time coefficient on an inner loop
      // A guard narrows the innermost loop only; a straight-line use in O
      // under a guard runs in some iterations only.
      if (e.guarded && e.loops.size() < 2) return std::nullopt;
      AffineForm firstValue, afterValue;
      if (!f.hasLoop()) {
        if (e.loops.size() != 1) return std::nullopt;  // repeats in an inner loop its stage does not count
        firstValue = f.offset;
        if (next && prev && IntExprTable::constantDifference(f.offset, *next) == -1) {
          // The stage just used again: another wait, or another signal of
          // the same site (copies sharing a phase).
          bool sameSite = prev->loops == e.loops && prevInner == f.offset;
          if (!waits && !sameSite) {
            if (rg.units == 0) return std::nullopt;
            rg.badAt = &e;
            rg.why = "the previous use already signalled that stage, so its phase gets the arrivals of both";
            return rg;
          }
          continue;
        }
        afterValue = plusConstant(f.offset, 1);
      } else {
        LinearStage li = linearStageOf(f, e);
        if (!li.ok || !li.notRunning.empty() || li.scale != 1 || e.loops.size() < 2 || li.loop != e.loops[1] ||
            1 + li.nest != e.loops.size())
          return std::nullopt;
        const IrStmt &L = *li.loop;
        AffineForm full = li.offset;
        for (const auto &[id, c] : f.loops) full.terms.emplace_back(id, c);  // a key for uses in one iteration
        if (auto [it, fresh] = seenLoops.try_emplace(&L, full); !fresh) {
          if (it->second != full) return std::nullopt;
          continue;
        }
        if (L.step != 1 || L.start.ix == kNoIntExpr || L.stop.ix == kNoIntExpr) return std::nullopt;
        // The iterations the use runs: the loop's, or its guard's sub-range
        // when L is the innermost loop.
        bool guardedL = e.guarded && e.loops.size() == 2;
        if (e.guarded && !guardedL) return std::nullopt;
        AffineForm start = guardedL ? e.first : k_.ints.form(L.start.ix);
        AffineForm stop = guardedL ? e.end : k_.ints.form(L.stop.ix);
        auto fv = IntExprTable::combine(li.offset, start, li.outerScale);
        auto av = IntExprTable::combine(li.offset, stop, li.outerScale);
        auto span = IntExprTable::constantDifference(stop, start);
        if (!fv || !av) return std::nullopt;
        // A constant span must be positive; a run-time one (k_steps - 1)
        // must be proven not negative (k_steps = (K + 63) // 64 with K a
        // declared, so positive, dimension), or the uses around it would
        // not add up to one iteration's count when the loop does not run.
        if (span ? *span <= 0 : !rg.coeffScaled) return std::nullopt;
        if (!span) {
          auto n = IntExprTable::combine(stop, start, -1);
          if (!n) return std::nullopt;
          if (lowerBound(k_, *n).value_or(-1) < 0 && !rg.unprovenSpan) rg.unprovenSpan = &L;
        }
        firstValue = *fv;
        afterValue = *av;
        ++rg.loops;
      }
      ++rg.units;
      if (!next) {
        rg.base = firstValue;
        rg.first = &e;
      } else if (auto d = IntExprTable::constantDifference(firstValue, *next); d != 0) {
        auto done = IntExprTable::constantDifference(*next, rg.base);
        if (!d || (!done && !rg.coeffScaled)) return std::nullopt;
        if (rg.loops == 0 && !f.hasLoop()) return std::nullopt;  // straight-line so far: the sequence check's
        rg.badAt = &e;
        rg.why = done ? fmt::format("in one iteration of the loop over '{}' the uses before it run through that "
                                    "iteration's stages 0 to {}, but it starts at stage {}, so stages {}",
                                    O->loopVar, *done - 1, *done + *d, *d > 0 ? "are skipped" : "repeat")
                      : fmt::format("in one iteration of the loop over '{}' it starts {} stage(s) {} the uses before "
                                    "it end, so stages {}",
                                    O->loopVar, magnitude(*d), *d > 0 ? "after" : "before",
                                    *d > 0 ? "are skipped" : "repeat");
        return rg;
      }
      next = afterValue;
      prev = &e;
      prevInner = f.offset;
    }
    // One unit is a plain running count, and straight-line uses in a loop
    // are the stages of its iterations: the sequence check handles both,
    // except one inner loop whose run-time coefficient (j * k_steps + k - 1
    // under `if k > 0`, its partner after the loop deleted) its span does
    // not match: that is a region that skips or repeats stages.
    if (!next || rg.loops == 0 ||
        (rg.units < 2 && (!rg.coeffScaled || linearStage(stageOperand(*rg.first->op), *rg.first).ok)))
      return std::nullopt;
    auto totalForm = IntExprTable::combine(*next, rg.base, -1);
    if (!totalForm) return std::nullopt;
    AffineForm coeffForm;
    coeffForm.constant = rg.coeff;
    if (rg.coeffScaled) coeffForm = *rg.coeffScaled;
    auto d = IntExprTable::constantDifference(*totalForm, coeffForm);
    if (!d || (rg.units < 2 && *d == 0)) return std::nullopt;
    if (*d != 0) {
      rg.badAt = prev;
      rg.why = totalForm->isConstant()
                   ? fmt::format("one iteration of the loop over '{}' runs through {} stage(s) in its uses, but the "
                                 "coefficient of '{}' is {}, so stages {} across its iterations",
                                 O->loopVar, totalForm->constant, O->loopVar, rg.coeffText(),
                                 *d < 0 ? "are skipped" : "repeat")
                   : fmt::format("one iteration of the loop over '{}' runs through {} stage(s) {} than the "
                                 "coefficient of '{}', so stages {} across its iterations",
                                 O->loopVar, magnitude(*d), *d > 0 ? "more" : "fewer", O->loopVar,
                                 *d < 0 ? "are skipped" : "repeat");
    }
    return rg;
  }

private:
  const Kernel &k_;
  const SourceManager &sm_;
  const KernelFacts *facts_;
};

}  // namespace

LinearStage linearStage(const Kernel &k, const SourceManager &sm, const StageRef &s, const Event &ev) {
  return StageCounter(k, sm, nullptr).linearStage(s, ev);
}

LinearStage linearStageOf(const Kernel &k, const SourceManager &sm, const StageForm &f, const Event &ev) {
  return StageCounter(k, sm, nullptr).linearStageOf(f, ev);
}

StageRegions collectStageRegions(const Kernel &k, const SourceManager &sm, const KernelFacts &f) {
  StageCounter counter(k, sm, &f);
  StageRegions out;
  for (const RoleEvents &r : f.roles)
    for (const Event &e : r.events) {
      ResourceId b = barrierOf(e);
      if (b == kNoResource || e.loops.empty()) continue;
      auto key = std::make_tuple(r.block, b, e.loops.front());
      if (!out.count(key)) out.emplace(key, counter.regionOf(r, b, e.loops.front()));
    }
  return out;
}

}  // namespace cake::analysis
