// ProgramSafety: the schedule cannot read stale data, race, or hang.
//
//  - a role reads a stage of a buffer another role fills only after waiting
//    on the barrier that guards it, for that stage (read-before-wait);
//  - every awaited barrier is signalled by someone, as often as it is
//    awaited, with as many arrivals per phase as its init_count says;
//  - roles do not wait on each other before either signals (circular wait);
//  - a producer that wraps around its ring waits for the readers to release
//    a stage before overwriting it (ring reuse);
//  - each role's uses of a barrier name its running count of uses: stage s
//    is mbarrier s mod count in phase s div count, so the stages a role names
//    must run 0, 1, 2, ... (a loop variable from the next count, step 1, in
//    one loop, not restarting in an outer one);
//  - generic-proxy writes read by the async proxy are fenced, and synced
//    across the role when one elected thread issues the async read;
//  - transaction bytes per phase fit the mbarrier's counter;
//  - a stage is not released (an arrive on a barrier whose waiters write the
//    buffer) while an asynchronous tensor-core operation that reads it may
//    still run: a wgmma read ends when a wait leaves fewer groups in flight
//    than were committed after it; a tcgen05 read ends only for a commit's
//    arrival (release-in-flight). Loops are followed into their next
//    iteration, so a group kept in flight across the back edge is seen.
//
// Where it cannot decide (stage indices it cannot relate, symbolic trip
// counts that differ in form, conditional copies) it warns under -Wunproven
// rather than passing silently.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "analysis/ScheduleModel.h"
#include "passes/Passes.h"
#include "sema/ConstEval.h"

namespace cake::passes {

using namespace sema;
using namespace ast;
using namespace analysis;

namespace {

// An mbarrier's transaction count is a 20-bit field (PTX ISA, mbarrier):
// at most 2^20 - 1 bytes pending per phase.
constexpr int64_t kMaxTxBytes = (1 << 20) - 1;

class SafetyChecker {
public:
  SafetyChecker(const PassContext &ctx, const Kernel &k, const KernelFacts &f)
      : ctx_(ctx), k_(k), roles_(f.roles), uses_(f.barriers), facts_(f) {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        // A view written by an operation that completes on a barrier is
        // guarded by that barrier.
        ResourceId v = effectResource(*e.op, fx.writes);
        ResourceId b = effectResource(*e.op, fx.signals);
        if (v != kNoResource && b != kNoResource) guards_[v].insert({b, r.role});
      }
    // A view declared alias=True over guarded bytes is guarded too: reading
    // through an alias does not bypass the wait.
    std::map<ResourceId, std::set<std::pair<ResourceId, ResourceId>>> inherited;
    for (const auto &[guarded, gs] : guards_)
      for (ResourceId v : sharing(guarded))
        if (v != guarded) inherited[v].insert(gs.begin(), gs.end());
    for (const auto &[v, gs] : inherited) guards_[v].insert(gs.begin(), gs.end());
  }

  // True if role `e.role` itself wrote `v` before `e` (it then reads its own data).
  bool ownWriteBefore(const Event &e, ResourceId v) const {
    for (const RoleEvents &r : roles_)
      for (const Event &w : r.events)
        if (w.role == e.role && w.index < e.index && effectResource(*w.op, w.op->info().effects.writes) == v)
          return true;
    return false;
  }

  void run() {
    checkStageForms();
    checkStageSequence();
    checkTurnOrder();
    checkReadBeforeWait();
    checkHandOffs();
    checkSignalled();
    checkArrivalCounts();
    checkTripCounts();
    checkCircularWait();
    checkRingReuse();
    checkMulticastRelease();
    checkProxyFences();
    checkTxBytes();
    collectReleases();
    checkReleaseInFlight();
    checkPartialRelease();
    checkReadAfterRelease();
    checkWritten();
    checkAliasRaces();
  }

private:
  const std::string &name(ResourceId id) const { return k_.resources[id].name; }
  std::string key(const StageRef &s) const { return stageText(ctx_.sm, s); }

  // A stage index as (loop, scale, offset): scale times an enclosing loop's
  // variable plus a loop-invariant offset (a constant, or parameters), or
  // the offset alone (loop null), read from its normal form. ok is false for
  // any other form.
  struct LinearStage {
    const IrStmt *loop = nullptr;  // the outermost loop of the running count
    size_t nest = 0;               // how many nested loops it counts over
    int64_t scale = 0;             // the innermost loop's coefficient
    int64_t outerScale = 0;        // the outermost loop's coefficient
    AffineForm offset;             // with the inner loops' first values folded in
    bool ok = false;
    std::string notRunning;  // why a count over nested loops repeats or skips stages
    // The outermost loop's coefficient when it is a run-time factor
    // (t * k_steps + k over k in range(0, k_steps)); outerScale is unused then.
    std::optional<AffineForm> outerScaled;
    // outerScale * x + offset; nullopt on overflow, or when the coefficient
    // is a run-time factor and x is not a constant.
    std::optional<AffineForm> at(const AffineForm &x) const {
      if (!outerScaled) return IntExprTable::combine(offset, x, outerScale);
      if (!x.isConstant()) return std::nullopt;
      return IntExprTable::combine(offset, *outerScaled, x.constant);
    }
  };
  // A running count over consecutive nested loops (t * 4 + k for k in
  // range(0, 4)) is one sequence: each outer coefficient is the inner one
  // times the inner loop's constant trip count. The outermost coefficient
  // may be a run-time factor equal to that count (t * k_steps + k for k in
  // range(0, k_steps)) when the nest is two loops deep.
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
                      O.loopVar, *d, inner.stop.expr ? sourceText(ctx_.sm, inner.stop.expr->range) : "its",
                      inner.loopVar, *d < 0 ? "repeat" : "are skipped");
    return ls;
  }

  // Stage indices the analyses can relate: a constant, or an enclosing
  // loop's variable times a constant plus a constant.
  void checkStageForms() {
    std::set<const Expr *> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        std::vector<StageRef> stages = {stageOperand(*e.op)};
        for (int8_t slot : e.op->info().effects.reads) stages.push_back(effectStage(*e.op, slot));
        for (size_t i = 0; i < stages.size(); ++i) {
          const StageRef &s = stages[i];
          if (!s.present() || linearStage(s, e).ok || (i == 0 && inRegion(r, e))) continue;
          if (reported.insert(s.expr).second)
            ctx_.diags.report(DiagId::SafetyUnprovenStage, s.expr->range, sourceText(ctx_.sm, s.expr->range));
        }
      }
  }
  // The barrier an event waits on or signals, or kNoResource.
  static ResourceId barrierOf(const Event &e) {
    const OpEffects &fx = e.op->info().effects;
    ResourceId b = effectResource(*e.op, fx.waits);
    return b != kNoResource ? b : effectResource(*e.op, fx.signals);
  }
  // The next stage of a role's sequence on a barrier: its normal form and
  // how to say it (nullopt: not known, after a loop whose end has no form).
  struct NextStage {
    AffineForm form;
    std::string text = "0";
    // The previous use's loops and stage form (its signal site).
    std::vector<const IrStmt *> loops;
    AffineForm stage;
    bool any = false;
    // After a loop nest whose stage count is a run-time product (T *
    // k_steps): the sequence goes on, at a stage with no normal form.
    bool noForm = false;
  };
  static AffineForm plus(const AffineForm &f, int64_t n) {
    AffineForm g = f;
    g.constant = satAdd(g.constant, n);
    return g;
  }
  // |d| for messages (INT64_MIN, from adversarial constants, as INT64_MAX).
  static int64_t magnitude(int64_t d) { return d >= 0 ? d : d == INT64_MIN ? INT64_MAX : -d; }
  // `base + n` as text: "5", "K // BK - 1".
  static std::string plusText(const std::string &base, const AffineForm &f, int64_t n) {
    if (f.isConstant()) return std::to_string(f.constant);
    if (n == 0) return base;
    return fmt::format("{} {} {}", base, n > 0 ? "+" : "-", n > 0 ? n : -n);
  }

  // A running count over the body of an outermost loop O: the role's uses
  // of a barrier inside O name C * O plus stages that, within one iteration
  // of O, run from some base through base + C - 1 in program order, over
  // sibling loops and straight-line uses (ThunderKittens' producer: three
  // prefetched stages, a wait on another barrier, then the rest). The whole
  // body is then one running count, C * O + base over O's iterations.
  struct Region {
    const IrStmt *loop = nullptr;  // O
    int64_t coeff = 0;             // C
    // C when it is a run-time factor (j * k_steps + ...): coeff is unused.
    std::optional<AffineForm> coeffScaled;
    AffineForm base;               // the body's first stage, less C * O
    const Event *first = nullptr;  // the body's first use
    int units = 0;                 // inner loops and straight-line stages it chains
    int loops = 0;                 // of which inner loops
    // Set when the body's uses do chain into whole units but not into one
    // count: the use where the chain breaks, and why.
    const Event *badAt = nullptr;
    std::string why;
    // base + C * x; nullopt on overflow, or for a run-time C and an x that
    // is not a constant.
    std::optional<AffineForm> at(const AffineForm &x) const {
      if (!coeffScaled) return IntExprTable::combine(base, x, coeff);
      if (!x.isConstant()) return std::nullopt;
      return IntExprTable::combine(base, *coeffScaled, x.constant);
    }
    std::string coeffText() const { return coeffScaled ? std::string("its run-time count") : std::to_string(coeff); }
  };
  // Whether role `role` takes turns over loop O on one side of barrier b.
  bool turnsOver(ResourceId b, ResourceId role, const IrStmt *O, bool waits) const {
    const std::optional<Turns> &t = waits ? facts_.barrier(b).waitTurns : facts_.barrier(b).signalTurns;
    return t && t->has(role) && t->loop.at(role) == O;
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
      if (e.conditional || (O->step != 1 && !turnsOver(b, r.role, O, waits))) return std::nullopt;
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
        afterValue = plus(f.offset, 1);
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
          if (!n || lowerBound(k_, *n).value_or(-1) < 0) return std::nullopt;
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
    // are the stages of its iterations: the sequence check handles both.
    if (!next || rg.units < 2 || rg.loops == 0) return std::nullopt;
    auto totalForm = IntExprTable::combine(*next, rg.base, -1);
    if (!totalForm) return std::nullopt;
    AffineForm coeffForm;
    coeffForm.constant = rg.coeff;
    if (rg.coeffScaled) coeffForm = *rg.coeffScaled;
    auto d = IntExprTable::constantDifference(*totalForm, coeffForm);
    if (!d) return std::nullopt;
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

  // The running count over the body of role r's outermost loop O on
  // barrier b (regionOf), computed once.
  const std::optional<Region> &regionFor(const RoleEvents &r, ResourceId b, const IrStmt *O) const {
    auto key = std::make_tuple(&r, b, O);
    auto it = regionCache_.find(key);
    if (it == regionCache_.end()) it = regionCache_.emplace(key, regionOf(r, b, O)).first;
    return it->second;
  }
  // Whether an event's stage on its barrier is one of a running count over
  // its outermost loop's body (which relates guarded and straight-line
  // uses that one loop nest does not).
  bool inRegion(const RoleEvents &r, const Event &e) const {
    ResourceId b = barrierOf(e);
    return b != kNoResource && !e.loops.empty() && regionFor(r, b, e.loops.front()).has_value();
  }

  // Each role's stages of a barrier, in program order, must be 0, 1, 2, ...:
  // the phase a wait expects and the mbarrier an arrival lands on are
  // derived from the stage index. Loop bounds and stages are compared as
  // normal forms, so `stage=k - 1` in a loop from 1 to n and `stage=n - 1`
  // after it continue the sequence. A wait on a release barrier may run
  // ahead of it by less than the ring's depth (it waits for a later release,
  // which implies the one it needs).
  void checkStageSequence() {
    for (const RoleEvents &r : roles_) {
      std::map<ResourceId, std::optional<NextStage>> next;  // nullopt: not known
      // The stage each loop's first use of a barrier names: every other use
      // in one iteration must name the same stage.
      std::map<std::pair<ResourceId, const IrStmt *>, std::pair<AffineForm, const Event *>> loopsSeen;
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        ResourceId b = effectResource(*e.op, fx.waits);
        bool waits = b != kNoResource;
        if (e.alternative) continue;  // its twin in the then-branch is in the sequence
        if (b == kNoResource) b = effectResource(*e.op, fx.signals);
        if (b == kNoResource) continue;
        StageRef s = stageOperand(*e.op);
        LinearStage ls = linearStage(s, e);
        std::optional<Region> region;
        if (!e.loops.empty()) region = regionFor(r, b, e.loops.front());
        if (!ls.ok && !region) continue;  // checkStageForms reports it
        if (!next.count(b)) next[b] = NextStage{};
        std::string text = s.present() ? sourceText(ctx_.sm, s.expr->range) : "0";
        SourceRange at = s.present() ? s.expr->range : e.op->range;
        // Uses in the same loop nest as the previous one are compared with it
        // below (one iteration, one stage).
        bool sameIteration = next[b] && next[b]->loops == e.loops;
        bool regionMember = region && !region->badAt && &e != region->first;  // checked with the region's first use
        if (next[b] && next[b]->noForm && !sameIteration && !regionMember) {
          ctx_.diags.report(DiagId::SafetyUnprovenStageSequence, at, text, name(r.role), name(b), next[b]->text);
          next[b] = std::nullopt;
          continue;
        }
        auto bad = [&](const std::string &why) {
          ctx_.diags.build(DiagId::SafetyStageSequence, at, name(r.role), name(b), text, why)
              .note(DiagId::NoteBarrierDeclaredHere, k_.resources[b].range, name(b))
              .emit();
        };
        int64_t count = k_.resources[b].count;
        // The stage `value` against the sequence: true if it continues it.
        auto follows = [&](const AffineForm &value, const std::string &why) {
          if (!next[b]) return;
          std::optional<int64_t> d = IntExprTable::constantDifference(value, next[b]->form);
          if (!d) {
            ctx_.diags.report(DiagId::SafetyUnprovenStageSequence, at, text, name(r.role), name(b), next[b]->text);
            next[b] = std::nullopt;
            return;
          }
          if (*d == 0) return;
          if (waits && facts_.barrier(b).release && *d > 0 && *d < count) return;  // a stricter wait
          if (waits && facts_.barrier(b).release && *d >= count) {
            bad(fmt::format("it runs {} stage(s) ahead of the sequence (next: {}), so it waits for a release of a "
                            "stage this role has not filled yet; a wait on a release barrier may run ahead by at "
                            "most {}",
                            *d, next[b]->text, count - 1));
            return;
          }
          bad(fmt::format(fmt::runtime(why), next[b]->text));
        };
        if (region) {
          // The body of the outermost loop is one running count: checked as
          // a unit at its first use, the others are inside it. Or it breaks
          // at one use: said there, once.
          if (region->badAt) {
            if (&e == region->badAt) bad(region->why);
            continue;
          }
          if (&e != region->first) continue;
          const IrStmt &O = *region->loop;
          // Roles taking turns over O run its iterations at step 1 between
          // them, from the first role's start.
          const std::optional<Turns> &turns = waits ? facts_.barrier(b).waitTurns : facts_.barrier(b).signalTurns;
          bool turn = turnsOver(b, r.role, &O, waits);
          std::optional<AffineForm> firstForm, afterForm;
          if (O.start.ix != kNoIntExpr && O.stop.ix != kNoIntExpr) {
            firstForm = region->at(turn ? turns->start : k_.ints.form(O.start.ix));
            afterForm = region->at(k_.ints.form(O.stop.ix));
          }
          bool afterNoForm = firstForm && !afterForm && region->coeffScaled;
          if (afterNoForm) afterForm = AffineForm{};
          if (!firstForm || !afterForm) {
            ctx_.diags.report(DiagId::SafetyUnprovenStage, at, text);
            next[b] = std::nullopt;
            continue;
          }
          follows(*firstForm, fmt::format("its first value is '{}' at the first iteration of the loop over '{}', but "
                                          "the next stage of the sequence is {{}}",
                                          text, O.loopVar));
          next[b] = NextStage{*afterForm, fmt::format("the stage after the loop over '{}'", O.loopVar),
                              e.loops,    *firstForm,
                              true,       afterNoForm};
          continue;
        }
        if (!ls.loop) {
          if (!e.loops.empty()) {
            auto trips = constantTripCount(e);
            if (!trips || *trips > 1) {
              bad(fmt::format("it names the same stage in every iteration of the loop over '{}'",
                              e.loops.back()->loopVar));
              continue;
            }
          }
          if (!next[b]) continue;
          // The stage just used, used again: a second wait on it is fine, and
          // so is another signal of the same site (copies sharing a phase);
          // a signal from elsewhere adds arrivals to a phase already given.
          if (IntExprTable::constantDifference(ls.offset, next[b]->form) == -1) {
            if (!waits && next[b]->any && (next[b]->loops != e.loops || next[b]->stage != ls.offset))
              bad("the previous use already signalled that stage, so its phase gets the arrivals of both");
            continue;
          }
          follows(ls.offset, "the next stage of the sequence is {}");
          if (next[b]) next[b] = NextStage{plus(ls.offset, 1), plusText(text, ls.offset, 1), e.loops, ls.offset, true};
          continue;
        }
        const IrStmt &L = *ls.loop;
        AffineForm full = ls.offset;  // the stage with its loop term, to compare uses in one iteration
        if (s.present() && s.ix != kNoIntExpr) full = k_.ints.form(s.ix);
        if (auto [it, fresh] = loopsSeen.insert({{b, &L}, {full, &e}}); !fresh) {
          if (it->second.first != full) {
            const Event &other = *it->second.second;
            ctx_.diags
                .build(DiagId::SafetyStageSequence, at, name(r.role), name(b), text,
                       fmt::format("another use in the same iteration names stage '{}', so two uses land in different "
                                   "phases of one iteration (one iteration, one stage)",
                                   stageText(ctx_.sm, stageOperand(*other.op))))
                .note(waits ? DiagId::NoteWaitHere : DiagId::NoteSignalHere, other.op->range, name(r.role), name(b))
                .emit();
          }
          continue;
        }
        size_t depth = std::find(e.loops.begin(), e.loops.end(), &L) - e.loops.begin();
        if (!ls.notRunning.empty()) {
          bad(ls.notRunning);
          continue;
        }
        if (depth + ls.nest != e.loops.size()) {
          bad(fmt::format("it repeats in every iteration of the inner loop over '{}'", e.loops.back()->loopVar));
          continue;
        }
        if (ls.scale != 1) {
          const std::string &var = e.loops.back()->loopVar;  // the innermost counted loop
          bad(ls.scale > 1 ? fmt::format("it advances by {} per iteration of the loop over '{}', so stages are skipped",
                                         ls.scale, var)
                           : fmt::format("it does not advance by 1 per iteration of the loop over '{}'", var));
          continue;
        }
        // Roles taking turns on this side of the barrier run through the
        // loop's iterations at step 1 between them, from the first's start.
        const std::optional<Turns> &turns = waits ? facts_.barrier(b).waitTurns : facts_.barrier(b).signalTurns;
        bool turn = turns && turns->has(r.role) && turns->loop.at(r.role) == &L && depth == 0;
        if (L.step != 1 && !turn) {
          bool others = (waits ? facts_.barrier(b).waiters : facts_.barrier(b).signallers).size() > 1;
          bad(L.step > 1 ? fmt::format("the loop over '{}' steps by {}, so stages are skipped{}", L.loopVar, L.step,
                                       others ? " (roles taking turns on a barrier loop alike, starting one apart, "
                                                "one role per turn)"
                                              : "")
                         : fmt::format("the loop over '{}' steps by a run-time amount", L.loopVar));
          continue;
        }
        // The outermost counted loop's iterations (the event's own range when
        // it is the innermost, with its guard).
        std::optional<IterationRange> range;
        if (turn && L.stop.ix != kNoIntExpr && !(ls.nest == 1 && e.guarded))
          range = IterationRange{turns->start, k_.ints.form(L.stop.ix)};
        else if (turn)
          range = std::nullopt;
        else if (ls.nest == 1)
          range = iterationRange(k_, e);
        else if (L.start.ix != kNoIntExpr && L.stop.ix != kNoIntExpr)
          range = IterationRange{k_.ints.form(L.start.ix), k_.ints.form(L.stop.ix)};
        int64_t cycle = satMul(2, count);   // stages after which slot and parity repeat
        std::optional<int64_t> innerTrips;  // stages the counted nest runs through
        if (range && !ls.outerScaled)
          if (auto span = IntExprTable::constantDifference(range->end, range->first))
            innerTrips = satMul(std::max<int64_t>(0, *span), ls.outerScale);
        auto scaled = [&](const AffineForm &x) { return ls.at(x); };
        if (depth > 0 && ls.outerScaled) {
          // How many stages the nest runs through is a run-time product.
          ctx_.diags.report(DiagId::SafetyUnprovenStage, at, text);
          next[b] = std::nullopt;
          continue;
        }
        if (depth > 0 && !(innerTrips && cycle > 0 && *innerTrips % cycle == 0)) {
          bad(fmt::format("it restarts in every iteration of the enclosing loop over '{}'; make the stage the "
                          "running count (for example, one loop over all steps)",
                          e.loops[depth - 1]->loopVar));
          continue;
        }
        std::optional<AffineForm> firstForm = range ? scaled(range->first) : std::nullopt;
        std::optional<AffineForm> afterForm = range ? scaled(range->end) : std::nullopt;
        bool afterNoForm = !afterForm && firstForm && ls.outerScaled && depth == 0;
        if (afterNoForm) afterForm = AffineForm{};
        if (!firstForm || !afterForm) {
          ctx_.diags.report(DiagId::SafetyUnprovenStage, at, text);
          next[b] = std::nullopt;
          continue;
        }
        AffineForm first = *firstForm;
        std::string firstText =
            first.isConstant() ? std::to_string(first.constant)
                               : fmt::format("'{}' at the first iteration it runs ('{}' = {})", text, L.loopVar,
                                             e.guarded || !L.start.expr ? std::string("its guard's first")
                                                                        : sourceText(ctx_.sm, L.start.expr->range));
        follows(first, fmt::format("its first value is {}, but the next stage of the sequence is {{}}", firstText));
        if (depth == 0) {
          std::string stop = L.stop.expr ? sourceText(ctx_.sm, L.stop.expr->range) : "the loop's end";
          AffineForm after = *afterForm;
          // The stop as written, when the range ends there; otherwise say where.
          auto stopForm = L.stop.ix != kNoIntExpr ? std::optional(k_.ints.form(L.stop.ix)) : std::nullopt;
          std::optional<int64_t> shift =
              stopForm && !afterNoForm ? IntExprTable::constantDifference(after, *stopForm) : std::nullopt;
          std::string afterText =
              shift ? plusText(stop, after, *shift) : fmt::format("the stage after the loop over '{}'", L.loopVar);
          next[b] = NextStage{after, afterText, e.loops, full, true, afterNoForm};
        } else {
          next[b] = std::nullopt;
        }
      }
    }
  }

  // Roles taking turns waiting on a barrier (ping-pong consumers sharing a
  // ring) each wait on stages the other roles' turns came through: a wait
  // on stage s is sound only once the barrier has completed the phase of
  // stage s - count (a phase-parity wait a lap early passes at once). A
  // role's own earlier waits order that within its turn; across turns, the
  // turn's first wait on the barrier must follow a wait on an ordering
  // barrier O that the previous turn's role signals after its last wait on
  // the barrier, the wait of turn j needing exactly turn j - 1's signal
  // (its stage less O's credits is the signal's stage one turn earlier).
  // Every earlier turn's waits then happen before, by the chain of O.
  void checkTurnOrder() {
    for (const auto &[b, use] : uses_) {
      if (!use.waitTurns || k_.resources[b].count < 1) continue;
      const Turns &t = *use.waitTurns;
      size_t n = t.roles.size();
      for (size_t i = 0; i < n; ++i) {
        ResourceId R = t.roles[i], P = t.roles[(i + n - 1) % n];
        const IrStmt *LR = t.loop.at(R), *LP = t.loop.at(P);
        const Event *firstWait = nullptr, *lastWaitP = nullptr;
        for (const Event *w : use.waits) {
          if (w->role == R && w->loops.front() == LR && (!firstWait || w->index < firstWait->index)) firstWait = w;
          if (w->role == P && w->loops.front() == LP && (!lastWaitP || w->index > lastWaitP->index)) lastWaitP = w;
        }
        if (!firstWait || !lastWaitP || ordersItself(b, use, R, LR, *firstWait, n) ||
            ordersTurn(R, LR, *firstWait, P, LP, *lastWaitP, b))
          continue;
        ctx_.diags.build(DiagId::SafetyTurnsUnordered, firstWait->op->range, name(P), name(R), name(b))
            .note(DiagId::NoteWaitHere, lastWaitP->op->range, name(P), name(b))
            .note(DiagId::NoteBarrierDeclaredHere, k_.resources[b].range, name(b))
            .emit();
      }
    }
  }
  // An ordered sequence barrier orders itself: R's wait at stage s waits
  // for the signal of stage s - credits and is sound once the one a lap
  // earlier (s - credits - count) is complete, which R gives itself in its
  // previous turn, n iterations back, when each phase takes one role's
  // signals (signals taking turns).
  bool ordersItself(ResourceId b, const BarrierFacts &use, ResourceId R, const IrStmt *LR, const Event &firstWait,
                    size_t n) const {
    if (!use.signalTurns || !use.signalTurns->has(R)) return false;
    StageForm w = stageForm(k_, stageOperand(*firstWait.op));
    if (!w.ok || w.loops.size() != 1 || w.loops[0].first != LR->loopId) return false;
    int64_t a = w.loops[0].second, count = k_.resources[b].count;
    int64_t credits = use.release ? count : 0;
    for (const Event *sg : use.signals) {
      if (sg->role != R || sg->loops.size() != 1 || sg->loops.front() != LR || sg->conditional || sg->guarded ||
          sg->alternative)
        continue;
      StageForm g = stageForm(k_, stageOperand(*sg->op));
      if (!g.ok || g.loops.size() != 1 || g.loops[0].first != LR->loopId || g.loops[0].second != a) continue;
      if (IntExprTable::constantDifference(w.offset, g.offset) ==
          satAdd(satAdd(credits, count), satMul(satMul(a, static_cast<int64_t>(n)), -1)))
        return true;
    }
    return false;
  }
  // Whether role R, in its turn loop LR, waits before `firstWait` on a
  // barrier that role P signals in its turn loop LP after `lastWaitP`, the
  // wait of each turn needing the signal of the turn before.
  bool ordersTurn(ResourceId R, const IrStmt *LR, const Event &firstWait, ResourceId P, const IrStmt *LP,
                  const Event &lastWaitP, ResourceId b) const {
    auto plain = [](const Event &e, const IrStmt *L) {
      return e.loops.size() == 1 && e.loops.front() == L && !e.conditional && !e.guarded && !e.alternative;
    };
    for (const RoleEvents &rr : roles_)
      for (const Event &wo : rr.events) {
        ResourceId O = effectResource(*wo.op, wo.op->info().effects.waits);
        if (wo.role != R || O == kNoResource || O == b || wo.index >= firstWait.index || !plain(wo, LR)) continue;
        StageForm w = stageForm(k_, stageOperand(*wo.op));
        if (!w.ok || w.loops.size() != 1 || w.loops[0].first != LR->loopId) continue;
        int64_t credits = facts_.barrier(O).release ? k_.resources[O].count : 0;
        for (const RoleEvents &pr : roles_)
          for (const Event &sg : pr.events) {
            if (sg.role != P || effectResource(*sg.op, sg.op->info().effects.signals) != O ||
                sg.index <= lastWaitP.index || !plain(sg, LP))
              continue;
            StageForm g = stageForm(k_, stageOperand(*sg.op));
            if (!g.ok || g.loops.size() != 1 || g.loops[0].first != LP->loopId ||
                g.loops[0].second != w.loops[0].second)
              continue;
            // w(j) - credits == g(j - 1): the offsets differ by credits - coefficient.
            if (IntExprTable::constantDifference(w.offset, g.offset) == satAdd(credits, satMul(w.loops[0].second, -1)))
              return true;
          }
      }
    return false;
  }

  // A multicast copy overwrites the stage in every block of the cluster: the
  // wait before it must be on a barrier every block's consumers arrive on.
  void checkMulticastRelease() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        if (!multicastCount(*e.op)) continue;
        const Event *firstWait = nullptr;
        bool clusterWide = false;
        for (const Event &w : r.events) {
          ResourceId b = effectResource(*w.op, w.op->info().effects.waits);
          if (b == kNoResource || !covers(k_, w, e)) continue;
          if (!firstWait) firstWait = &w;
          bool all = !facts_.barrier(b).signals.empty();
          for (const Event *s : facts_.barrier(b).signals) all &= signalsCluster(*s->op);
          clusterWide |= all;
        }
        if (firstWait && !clusterWide) {
          ResourceId b = effectResource(*firstWait->op, firstWait->op->info().effects.waits);
          ctx_.diags.report(DiagId::SafetyMulticastRelease, e.op->range, name(r.role), key(stageOperand(*e.op)),
                            name(e.op->receiver), name(b));
        }
      }
  }

  void checkReadBeforeWait() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        for (int8_t slot : e.op->info().effects.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || !guards_.count(v) || ownWriteBefore(e, v)) continue;
          StageRef read = effectStage(*e.op, slot);
          std::string stage = key(read);
          for (const auto &[barrier, writer] : guards_[v]) {
            if (writer == r.role) continue;  // its own copies: ordered by the role itself
            bool ok = false;
            for (const Event *w : facts_.barrier(barrier).waits)
              if (covers(k_, *w, e) && (k_.resources[v].stages <= 1 || sameStage(k_, stageOperand(*w->op), read)))
                ok = true;
            if (!ok)
              ctx_.diags.build(DiagId::SafetyReadBeforeWait, e.op->range, name(r.role), stage, name(v), name(barrier))
                  .note(DiagId::NoteBarrierDeclaredHere, k_.resources[barrier].range, name(barrier))
                  .emit();
          }
        }
      }
  }

  // A hand-off that is not a TMA copy: a view written with generic stores,
  // a TMEM accumulator written by the tensor core. A role reading what
  // another role writes must wait on a barrier the writer signals after the
  // write (an arrive after the stores, a commit after the MMA). (TMA copies
  // complete on their barrier: checkReadBeforeWait.)
  void checkHandOffs() {
    std::set<std::pair<const Event *, ResourceId>> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        for (int8_t slot : e.op->info().effects.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || ownWriteBefore(e, v)) continue;
          ResourceKind kind = k_.resources[v].kind;
          if (kind != ResourceKind::View && kind != ResourceKind::Tmem) continue;
          for (const RoleEvents &o : roles_)
            for (const Event &w : o.events) {
              if (o.role == r.role || effectResource(*w.op, w.op->info().effects.writes) != v) continue;
              if (effectResource(*w.op, w.op->info().effects.signals) != kNoResource) continue;  // a copy
              // A signal after the write, on a barrier whose wait covers the
              // read, by enough threads (or after a role sync) to vouch for
              // every thread's stores.
              bool ok = false;
              const Event *partial = nullptr;
              for (const auto &[b, use] : uses_) {
                // A barrier whose first lap passes (credits) hands nothing
                // over on that lap.
                if (use.release) continue;
                bool waited = false;
                for (const Event *x : use.waits) waited |= covers(k_, *x, e);
                if (!waited) continue;
                for (const Event *x : use.signals) {
                  if (x->role != o.role || x->index <= w.index) continue;
                  if (vouches(w, *x))
                    ok = true;
                  else
                    partial = x;
                }
              }
              if (ok || !reported.insert({&e, v}).second) continue;
              if (partial) {
                int64_t all = roleThreads(k_, o.role);
                ResourceId b = effectResource(*partial->op, partial->op->info().effects.signals);
                ctx_.diags
                    .build(DiagId::SafetyPartialHandOff, partial->op->range, name(o.role), name(v), name(b),
                           unitName(all / std::max<int64_t>(partial->threads, 1), all),
                           unitName(completionUnit(w, all), all))
                    .note(DiagId::NoteWrittenHere, w.op->range, name(v))
                    .emit();
                continue;
              }
              ctx_.diags.build(DiagId::SafetyUnsynchronisedRead, e.op->range, name(r.role), name(v), name(o.role))
                  .note(DiagId::NoteWrittenHere, w.op->range, name(v))
                  .emit();
            }
        }
  }

  // Whether signal `x` comes after every thread's part of write `w`: its
  // arrivals cover the write's units, or a role sync lies between them.
  bool vouches(const Event &w, const Event &x) const {
    int64_t all = roleThreads(k_, w.role);
    if (x.threads <= 0) return false;
    int64_t span = all / x.threads, unit = completionUnit(w, all);
    if (span <= unit || all <= unit) return true;
    return roleSyncBetween(w.index, x);
  }

  // Whether a role sync of x's role lies after event index `after` and
  // before x, every time x runs.
  bool roleSyncBetween(size_t after, const Event &x) const {
    for (const RoleEvents &r : roles_)
      for (const Event &s : r.events)
        if (s.role == x.role && s.op->info().effects.syncsRole && s.index > after && s.index < x.index &&
            covers(k_, s, x))
          return true;
    return false;
  }

  void checkSignalled() {
    for (const auto &[b, use] : uses_)
      if (use.signals.empty() && !use.waits.empty()) {
        const Event &w = *use.waits.front();
        ctx_.diags.build(DiagId::SafetyWaitNeverSatisfied, w.op->range, name(w.role), name(b))
            .note(DiagId::NoteBarrierDeclaredHere, k_.resources[b].range, name(b))
            .emit();
      }
  }

  // Arrivals per phase (the analysis layer counts them: a role's TMA copies
  // share one arrive.expect_tx) against the barrier's init_count.
  void checkArrivalCounts() {
    for (const auto &[b, use] : uses_) {
      if (use.signals.empty()) continue;
      const Resource &bar = k_.resources[b];
      if (use.conditionalSignals) {
        // Branches may balance or not; say so rather than pass silently.
        ctx_.diags.report(DiagId::SafetyUnprovenArrivals, bar.range, bar.name, bar.initCount);
        continue;
      }
      auto siteText = [&](const SignalSite &st) {
        int64_t expectTx = st.count;
        for (const auto &[e, n] : st.arrives) expectTx -= n;
        std::string how = st.copies.empty() ? "" : fmt::format("{} arrive.expect_tx for its TMA copies", expectTx);
        for (const auto &[e, n] : st.arrives) {
          bool scoped = e->op->info().effects.signal == Signal::Arrive;
          how += fmt::format("{}{} from '{}'{}", how.empty() ? "" : ", ", n, e->op->info().name,
                             scoped ? " per " + std::string(arrivalScopeName(e->op->scope)) : "");
        }
        return how;
      };
      // Every site of a role must give the same arrivals: each is a phase.
      bool uneven = false;
      for (const auto &[role, ra] : use.arrivals) {
        if (!ra.uneven) continue;
        uneven = true;
        for (const SignalSite &st : ra.sites)
          if (st.count != ra.count) {
            ctx_.diags
                .build(DiagId::SafetyArrivalCount, st.first->op->range, bar.name, bar.initCount,
                       use.arrivalsPerPhase - ra.count + st.count,
                       fmt::format("role '{}' gives {} here ({}) but {} at its first signal ({})", name(role), st.count,
                                   siteText(st), ra.count, siteText(ra.sites.front())))
                .note(DiagId::NoteSignalHere, ra.sites.front().first->op->range, name(role), bar.name)
                .emit();
            break;
          }
      }
      if (uneven || use.arrivalsPerPhase == bar.initCount) continue;
      std::string parts;
      for (const auto &[role, ra] : use.arrivals)
        parts += fmt::format("{}role '{}' gives {} ({})", parts.empty() ? "" : "; ", name(role), ra.count,
                             siteText(ra.sites.front()));
      if (use.signalTurns) parts += "; they take turns, so a phase gets the signals of one of them";
      // Where the arrivals come from, and the count that would match them.
      auto d =
          ctx_.diags.build(DiagId::SafetyArrivalCount, bar.range, bar.name, bar.initCount, use.arrivalsPerPhase, parts);
      for (const auto &[role, ra] : use.arrivals)
        d.note(DiagId::NoteSignalHere, ra.sites.front().first->op->range, name(role), bar.name);
      d.note(DiagId::NoteSetInitCount, bar.range, use.arrivalsPerPhase, bar.name);
      if (bar.initCountSite.valid())
        d.fixit(bar.initCountSite, bar.initCountWritten ? std::to_string(use.arrivalsPerPhase)
                                                        : fmt::format(", init_count={}", use.arrivalsPerPhase));
      d.emit();
    }
  }

  // The phases a role completes on a barrier (one per run of each signal
  // site) or consumes (one per run of each wait), summed; nullopt when a
  // count has no normal form.
  std::optional<PolyForm> phases(const BarrierFacts &use, ResourceId role, bool signals) const {
    std::vector<const Event *> events;
    if (signals) {
      auto it = use.arrivals.find(role);
      if (it != use.arrivals.end())
        for (const SignalSite &st : it->second.sites) events.push_back(st.first);
    } else {
      // Waits on one stage in one iteration wait for one phase (waiting
      // again on the stage just used is allowed).
      std::set<std::pair<std::vector<const IrStmt *>, AffineForm>> sites;
      for (const Event *e : use.waits) {
        if (e->role != role) continue;
        bool known;
        AffineForm f = formOf(stageOperand(*e->op), known);
        if (!known || sites.insert({e->loops, f}).second) events.push_back(e);
      }
    }
    // A role taking turns with others counts the phases of all of them.
    const std::optional<Turns> &turns = signals ? use.signalTurns : use.waitTurns;
    bool turn = turns && turns->has(role);
    PolyForm total;
    for (const Event *e : events) {
      if (e->conditional) return std::nullopt;  // how often a branch is taken is not known
      const IrStmt *L = turn ? turns->loop.at(role) : nullptr;
      std::optional<PolyForm> n =
          turn ? (L->stop.ix == kNoIntExpr ? std::nullopt
                                           : tripForm(k_, *e, IterationRange{turns->start, k_.ints.form(L->stop.ix)}))
               : tripForm(k_, *e);
      if (!n) return std::nullopt;
      std::optional<PolyForm> sum = PolyForm::add(total, *n, 1);
      if (!sum) return std::nullopt;
      total = *sum;
    }
    return total;
  }

  // Each pair of a signalling and a waiting role: the phases one completes
  // and the other consumes must be equal. Constant counts are compared as
  // numbers; symbolic ones as normal forms (equal, or provably different by
  // a constant); anything else is unproven.
  void checkTripCounts() {
    for (const auto &[b, use] : uses_) {
      std::set<std::pair<ResourceId, ResourceId>> reported;
      // Roles taking turns are compared as one: by their first role.
      auto group = [](const std::optional<Turns> &t, ResourceId role) {
        return t && t->has(role) ? t->roles.front() : role;
      };
      for (const Event *s : use.signals)
        for (const Event *w : use.waits) {
          if (s->role == w->role ||
              !reported.insert({group(use.signalTurns, s->role), group(use.waitTurns, w->role)}).second)
            continue;
          std::optional<PolyForm> ns = phases(use, s->role, true), nw = phases(use, w->role, false);
          std::optional<int64_t> d = ns && nw ? PolyForm::constantDifference(*ns, *nw) : std::nullopt;
          // One signal site and one wait in the same loop nest: equal counts,
          // whatever the bounds.
          auto site = use.arrivals.find(s->role);
          size_t waitsOfW =
              std::count_if(use.waits.begin(), use.waits.end(), [&](const Event *x) { return x->role == w->role; });
          bool turns =
              (use.signalTurns && use.signalTurns->has(s->role)) || (use.waitTurns && use.waitTurns->has(w->role));
          bool oneEach = site != use.arrivals.end() && site->second.sites.size() == 1 && waitsOfW == 1 &&
                         !w->conditional && !use.conditionalSignals;
          if (!turns && oneEach && sameLoopNest(k_, *site->second.sites.front().first, *w)) continue;
          // Roles taking turns alike: their shared loop read as the
          // iterations they run between them (T * k_steps phases each way,
          // which a trip form cannot multiply out).
          if (turns && oneEach) {
            auto shared = [&](const std::optional<Turns> &t, ResourceId role) -> std::optional<IterationRange> {
              if (!t || !t->has(role) || t->loop.at(role)->stop.ix == kNoIntExpr) return std::nullopt;
              return IterationRange{t->start, k_.ints.form(t->loop.at(role)->stop.ix)};
            };
            auto so = shared(use.signalTurns, s->role), wo = shared(use.waitTurns, w->role);
            auto rs = nestRanges(k_, *site->second.sites.front().first, so ? &*so : nullptr);
            auto rw = nestRanges(k_, *w, wo ? &*wo : nullptr);
            if (rs && rw && *rs == *rw) continue;
          }
          // A release barrier's first lap passes without arrivals: up to
          // `count` more waits than signals are fine (the consumer need not
          // release the stages nothing refills).
          int64_t diff = d.value_or(0);
          if (d && use.release && -diff >= 0 && -diff <= k_.resources[b].count) continue;
          if (d) {
            if (diff == 0) continue;
            std::string what =
                ns->isConstant() && nw->isConstant()
                    ? fmt::format("role '{}' signals it {} time(s) but role '{}' waits on it {} time(s)", name(s->role),
                                  ns->constant(), name(w->role), nw->constant())
                    : fmt::format(
                          "role '{}' signals it {} time(s) {} than role '{}' waits on it, whenever the loops run",
                          name(s->role), diff > 0 ? diff : -diff, diff > 0 ? "more" : "fewer", name(w->role));
            ctx_.diags.build(DiagId::SafetyTripCountMismatch, w->op->range, name(b), what)
                .note(DiagId::NoteSignalHere, s->op->range, name(s->role), name(b))
                .emit();
            continue;
          }
          auto nest = [&](const Event &e) {
            std::string n = loopNestKey(ctx_.sm, e);
            return n.empty() ? std::string("once") : "in " + n;
          };
          ctx_.diags.report(DiagId::SafetyUnprovenTripCount, w->op->range, name(b),
                            fmt::format("role '{}' signals it {} and role '{}' waits on it {}", name(s->role), nest(*s),
                                        name(w->role), nest(*w)));
        }
    }
  }

  // Deadlock on the first lap: a role's first signal of a barrier comes
  // after each blocking wait it makes before that signal (in program order,
  // the order of the first iteration). A wait depends on the first signals
  // of the barrier's signallers; a wait on a barrier whose first lap passes
  // (credits, release barriers) blocks nothing. A cycle through these
  // dependencies is a wait no role can end.
  void checkCircularWait() {
    // A node: (role, barrier it signals) -> its first signal event.
    std::map<std::pair<ResourceId, ResourceId>, const Event *> firstSignal;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        if (ResourceId c = effectResource(*e.op, e.op->info().effects.signals); c != kNoResource)
          firstSignal.try_emplace({r.role, c}, &e);
    // Edges: node -> (the wait that blocks it, the node that wait needs).
    using Node = std::pair<ResourceId, ResourceId>;
    std::map<Node, std::vector<std::pair<const Event *, Node>>> edges;
    for (const auto &[node, sig] : firstSignal)
      for (const RoleEvents &r : roles_) {
        if (r.role != node.first) continue;
        for (const Event &w : r.events) {
          if (w.index >= sig->index) break;
          ResourceId b = effectResource(*w.op, w.op->info().effects.waits);
          // A conditional wait counts: whenever it runs, it needs the signal.
          if (b == kNoResource || facts_.barrier(b).release) continue;
          // A wait guarded off its loop's first iteration (`if t > 0`) does
          // not run before that iteration's signals.
          if (w.guarded && w.loops.back()->start.ix != kNoIntExpr)
            if (auto d = IntExprTable::constantDifference(w.first, k_.ints.form(w.loops.back()->start.ix)); d && *d > 0)
              continue;
          for (ResourceId s : facts_.barrier(b).signallers) edges[node].push_back({&w, Node{s, b}});
        }
      }
    // Find a cycle (depth-first, in the order roles are declared).
    std::set<Node> done;
    for (const auto &entry : firstSignal) {
      const Node start = entry.first;
      if (done.count(start)) continue;
      std::vector<std::pair<const Event *, Node>> path;  // the waits along the cycle
      std::set<Node> onPath = {start};
      std::function<bool(const Node &)> dfs = [&](const Node &n) -> bool {
        for (const auto &[w, next] : edges[n]) {
          path.push_back({w, next});
          if (next == start) return true;
          if (!onPath.count(next) && !done.count(next) && firstSignal.count(next)) {
            onPath.insert(next);
            if (dfs(next)) return true;
            onPath.erase(next);
          }
          path.pop_back();
        }
        return false;
      };
      bool cycle = dfs(start);
      done.insert(start);
      if (!cycle) continue;
      std::string text;
      for (size_t i = 0; i < path.size(); ++i) {
        const Event *w = path[i].first;
        ResourceId who = path[i].second.first;
        text +=
            fmt::format("{}role '{}' waits on '{}', which {} signals only later", i ? "; " : "", name(w->role),
                        name(path[i].second.second), who == w->role ? std::string("it") : "role '" + name(who) + "'");
      }
      auto builder = ctx_.diags.build(DiagId::SafetyCircularWait, path.front().first->op->range, text);
      for (size_t i = 1; i < path.size(); ++i)
        builder.note(DiagId::NoteWaitHere, path[i].first->op->range, name(path[i].first->role),
                     name(path[i].second.second));
      builder.emit();
      for (const auto &p : path) done.insert(p.second);
    }
  }

  // Whether a wait on barrier `b` at stage `a` protects the write of a view
  // of `depth` stages at stage `w`: it waits for the arrival at stage
  // a - credits, which must come after the reads of the slot's previous
  // occupant (stage w - depth), i.e. a - w >= credits - depth; a wait a full
  // lap ahead or more is a hang (checkStageSequence).
  bool protects(const StageRef &a, const StageRef &w, ResourceId b, int64_t depth) const {
    bool ka, kw;
    AffineForm fa = formOf(a, ka), fw = formOf(w, kw);
    if (!ka || !kw) return false;
    // A write naming no stage into a single-slot buffer (a staging view, a
    // TMEM accumulator) is the use the wait stands for.
    std::optional<int64_t> d = !w.present() && depth <= 1 ? 0 : IntExprTable::constantDifference(fa, fw);
    int64_t credits = facts_.barrier(b).release ? k_.resources[b].count : 0;
    return d && *d >= credits - std::max<int64_t>(depth, 1) && *d < std::max<int64_t>(credits, 1);
  }

  // A wait guarded off the first iterations of the write's loop (`if k >= 2:
  // wait(empty, stage=k - 2)`) covers the write if the iterations it skips
  // only fill slots for the first time: their stages (k + c, constants) stay
  // below the view's depth.
  bool coversAfterFirstLap(const Event &w, const Event &e, const StageRef &written, int64_t depth) const {
    if (!w.guarded || w.conditional || w.role != e.role || w.index >= e.index || w.loops != e.loops) return false;
    auto re = iterationRange(k_, e);
    if (!re || !re->first.isConstant() || !w.first.isConstant()) return false;
    auto toEnd = IntExprTable::constantDifference(w.end, re->end);
    if (!toEnd || *toEnd < 0) return false;
    StageForm f = stageForm(k_, written);
    if (!f.ok || f.loops.size() != 1 || f.loops[0].first != e.loops.back()->loopId || f.loops[0].second != 1 ||
        !f.offset.isConstant())
      return false;
    int64_t lastSkipped = satAdd(satAdd(w.first.constant, -1), f.offset.constant);  // the last skipped stage
    int64_t firstStage = satAdd(re->first.constant, f.offset.constant);
    return firstStage >= 0 && lastSkipped < depth;
  }

  void checkRingReuse() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        ResourceId v = effectResource(*e.op, fx.writes);
        // Views, and TMEM accumulators a persistent MMA role rewrites per tile.
        if (v == kNoResource || e.loops.empty()) continue;
        if (k_.resources[v].kind != ResourceKind::View && k_.resources[v].kind != ResourceKind::Tmem) continue;
        const Resource &view = k_.resources[v];
        auto trips = constantTripCount(e);
        if (trips && *trips <= view.stages) continue;  // never wraps
        // The roles that read this view.
        std::set<ResourceId> readers;
        for (const RoleEvents &o : roles_)
          for (const Event &x : o.events)
            for (int8_t slot : x.op->info().effects.reads)
              if (effectResource(*x.op, slot) == v && o.role != r.role) readers.insert(o.role);
        if (readers.empty()) continue;
        // An accumulator is handed over once its loop of multiply-accumulates
        // is done; it is rewritten under a reader only when a loop around the
        // write also hands it over (one tile per iteration).
        if (view.kind == ResourceKind::Tmem) {
          bool handedInLoop = false;
          for (const RoleEvents &o : roles_)
            for (const Event &x : o.events) {
              ResourceId b = effectResource(*x.op, x.op->info().effects.signals);
              if (o.role != r.role || b == kNoResource) continue;
              bool toReader = false;
              for (ResourceId rr : readers) toReader |= facts_.barrier(b).waiters.count(rr) > 0;
              for (const IrStmt *l : e.loops)
                handedInLoop |= toReader && std::find(x.loops.begin(), x.loops.end(), l) != x.loops.end();
            }
          if (!handedInLoop) continue;
        }
        StageRef written = effectStage(*e.op, kReceiver);
        bool released = false;
        for (const auto &[b, use] : uses_) {
          std::set<ResourceId> signallers;
          for (const Event *s : use.signals) signallers.insert(s->role);
          if (!std::includes(signallers.begin(), signallers.end(), readers.begin(), readers.end())) continue;
          // A wait for a later release implies the earlier ones: the
          // releasing role's stages run in sequence (checkStageSequence).
          for (const Event *w : use.waits)
            if ((covers(k_, *w, e) || coversAfterFirstLap(*w, e, written, view.stages)) &&
                protects(stageOperand(*w->op), written, b, view.stages))
              released = true;
        }
        if (!released) {
          std::string who;
          for (ResourceId rr : readers) who += (who.empty() ? "role '" : "', role '") + name(rr);
          ctx_.diags
              .build(DiagId::SafetyRingReuse, e.op->range, name(r.role), stageOf(v, written), view.name, who + "'")
              .note(DiagId::NoteDeclaredHere, view.range, view.name)
              .emit();
        }
      }
  }

  void checkProxyFences() {
    for (const RoleEvents &r : roles_) {
      std::map<ResourceId, const Event *> unfenced, unsynced, unsyncedGeneric;
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (fx.fence) unfenced.clear();
        if (fx.syncsRole) unsyncedGeneric.clear();
        // A chunked read takes its 16-byte chunks from whichever threads of
        // the role wrote them: only a role sync orders those writes first.
        if (fx.chunked && fx.proxy == Proxy::Generic && roleThreads(k_, r.role) > 1)
          for (int8_t slot : fx.reads)
            if (ResourceId v = effectResource(*e.op, slot); v != kNoResource)
              if (auto it = unsyncedGeneric.find(v); it != unsyncedGeneric.end() && it->second->op != e.op) {
                ctx_.diags.build(DiagId::SafetyCrossThreadRead, e.op->range, name(r.role), name(v), e.op->info().name)
                    .note(DiagId::NoteWrittenHere, it->second->op->range, name(v))
                    .emit();
                unsyncedGeneric.erase(it);
              }
        // A role sync publishes only writes already fenced: each writer must
        // fence before the sync for the elected thread's async read to see
        // its writes.
        if (fx.syncsRole)
          for (auto it = unsynced.begin(); it != unsynced.end();)
            it = unfenced.count(it->first) ? std::next(it) : unsynced.erase(it);
        if (fx.proxy == Proxy::Async) {
          for (int8_t slot : fx.reads) {
            ResourceId v = effectResource(*e.op, slot);
            if (v == kNoResource) continue;
            if (auto it = unfenced.find(v); it != unfenced.end()) {
              ctx_.diags.build(DiagId::SafetyMissingProxyFence, e.op->range, name(r.role), name(v), e.op->info().name)
                  .note(DiagId::NoteWrittenHere, it->second->op->range, name(v))
                  .emit();
              unfenced.erase(it);
              unsynced.erase(v);
            } else if (auto it2 = unsynced.find(v); it2 != unsynced.end() && fx.single) {
              ctx_.diags.build(DiagId::SafetyMissingRoleSync, e.op->range, name(r.role), name(v), e.op->info().name)
                  .note(DiagId::NoteWrittenHere, it2->second->op->range, name(v))
                  .emit();
              unsynced.erase(it2);
            }
          }
        }
        if (fx.proxy == Proxy::Generic)
          if (ResourceId v = effectResource(*e.op, fx.writes); v != kNoResource) {
            unfenced[v] = &e;
            unsynced[v] = &e;
            unsyncedGeneric[v] = &e;
          }
      }
    }
  }

  void checkTxBytes() {
    for (const auto &[b, use] : uses_) {
      // Credits let the first lap's waits pass: on a barrier that data
      // lands on, the consumer would read before the copy.
      if (use.data && k_.resources[b].credits > 0)
        ctx_.diags.report(DiagId::SafetyCreditsOnData, k_.resources[b].range, name(b), k_.resources[b].credits);
      if (use.conditionalCopies)
        ctx_.diags.report(DiagId::SafetyUnprovenTxBytes, k_.resources[b].range, name(b));
      else if (use.txBytesPerPhase > kMaxTxBytes)
        ctx_.diags.report(DiagId::SafetyTxBytes, k_.resources[b].range, name(b), use.txBytesPerPhase);
    }
  }

  // ---- what is read was written ----
  // The resource an event writes through its effects, and the fragment an
  // operation defines (its result).
  static std::vector<ResourceId> written(const Event &e) {
    std::vector<ResourceId> out;
    if (ResourceId w = effectResource(*e.op, e.op->info().effects.writes); w != kNoResource) out.push_back(w);
    if (e.op->result.kind == ValueKind::Resource && e.op->result.resource != kNoResource)
      out.push_back(e.op->result.resource);
    for (const Value &x : e.op->result.elts)  // a pair of fragments (lm.rowargmin)
      if (x.kind == ValueKind::Resource && x.resource != kNoResource) out.push_back(x.resource);
    return out;
  }
  bool readsResource(const Event &e, ResourceId v) const {
    for (int8_t slot : e.op->info().effects.reads)
      if (effectResource(*e.op, slot) == v) return true;
    return false;
  }
  // Views sharing bytes with `v` through an alias (either declared
  // alias=True), `v` itself included.
  std::vector<ResourceId> sharing(ResourceId v) const {
    std::vector<ResourceId> out = {v};
    const Resource &a = k_.resources[v];
    if (a.kind != ResourceKind::View) return out;
    for (const Resource &o : k_.resources) {
      if (o.kind != ResourceKind::View || o.id == v || o.pool != a.pool || !(o.alias || a.alias)) continue;
      if (std::max(o.offset, a.offset) < std::min(satAdd(o.offset, o.totalBytes), satAdd(a.offset, a.totalBytes)))
        out.push_back(o.id);
    }
    return out;
  }

  // Everything read was written first: a view or fragment nothing writes,
  // a role reading its own data before writing it, an accumulator whose
  // first multiply-accumulate adds to nothing (init false on its first
  // run), and two roles writing one view with no barrier between them.
  void checkWritten() {
    std::map<ResourceId, std::vector<const Event *>> writers;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        for (ResourceId w : written(e)) writers[w].push_back(&e);
    auto writersOf = [&](ResourceId v) {
      std::vector<const Event *> out;
      for (ResourceId o : sharing(v))
        if (auto it = writers.find(o); it != writers.end()) out.insert(out.end(), it->second.begin(), it->second.end());
      return out;
    };
    auto dataKind = [&](ResourceId v) {
      ResourceKind kind = k_.resources[v].kind;
      return kind == ResourceKind::View || kind == ResourceKind::Regs || kind == ResourceKind::Tmem;
    };
    std::set<ResourceId> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        for (int8_t slot : e.op->info().effects.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || !dataKind(v) || !writersOf(v).empty() || !reported.insert(v).second) continue;
          ctx_.diags.build(DiagId::SafetyReadUnwritten, e.op->range, name(r.role), name(v))
              .note(DiagId::NoteDeclaredHere, k_.resources[v].range, name(v))
              .emit();
        }
    // Per role: the first run that touches each resource its role alone writes.
    for (const RoleEvents &r : roles_) {
      std::map<ResourceId, const Event *> first;
      for (const Event &e : r.events) {
        std::vector<ResourceId> touched = written(e);
        for (int8_t slot : e.op->info().effects.reads)
          if (ResourceId v = effectResource(*e.op, slot); v != kNoResource) touched.push_back(v);
        for (ResourceId v : touched) {
          if (!dataKind(v)) continue;
          auto [it, fresh] = first.try_emplace(v, &e);
          // A guarded event of the same loop may run first (`if k == 0`
          // after `if k > 0` in the text).
          const Event &f = *it->second;
          if (!fresh && f.guarded && e.loops == f.loops)
            if (auto re = iterationRange(k_, e))
              if (auto d = IntExprTable::constantDifference(f.first, re->first); d && *d > 0) it->second = &e;
        }
      }
      for (const auto &[v, e] : first) {
        std::vector<const Event *> ws = writersOf(v);
        bool others = std::any_of(ws.begin(), ws.end(), [&](const Event *w) { return w->role != r.role; });
        if (ws.empty() || others || e->conditional || reported.count(v)) continue;
        std::vector<ResourceId> out = written(*e);
        bool writes = std::find(out.begin(), out.end(), v) != out.end();
        if (!writes || readsResource(*e, v)) {
          ctx_.diags.build(DiagId::SafetyReadBeforeWrite, e->op->range, name(r.role), name(v))
              .note(DiagId::NoteWrittenHere, ws.front()->op->range, name(v))
              .emit();
          continue;
        }
        int8_t flag = e->op->info().effects.overwrites;
        if (flag == kNone || effectResource(*e->op, e->op->info().effects.writes) != v) continue;
        const Operand &init = e->op->operandAt(flag);
        std::string what = "init";
        if (init.present && init.value.expr) {
          std::string text = sourceText(ctx_.sm, init.value.expr->range);
          what = text.find(' ') == std::string::npos ? "init=" + text : "init=(" + text + ")";
        }
        std::optional<bool> overwrites = valueOnFirstRun(k_, *e, init.value);
        if (overwrites == true) continue;
        if (overwrites == false)
          ctx_.diags.report(DiagId::SafetyUninitialisedAccumulator, e->op->range, name(r.role), name(v),
                            fmt::format("{} is false on the first run of its first '{}'{}", what, e->op->info().name,
                                        init.value.expr ? "" : " (init defaults to False)"));
        else
          ctx_.diags.report(
              DiagId::SafetyUnprovenInitialised, e->op->range, name(r.role), name(v),
              fmt::format("{} of its first '{}' has no known value on its first run", what, e->op->info().name));
      }
    }
    // Two roles writing one view: the later write waits for a barrier the
    // earlier writer signals after (or with) its write. One direction is
    // enough when the earlier write runs once; writes that repeat need the
    // hand-off both ways (ping-pong), and a barrier whose first lap passes
    // (credits) orders nothing on that lap, so one direction must block.
    for (const auto &[v, ws] : writers) {
      if (k_.resources[v].kind != ResourceKind::View) continue;
      auto after = [&](const Event &later, const Event &earlier, bool blockingOnly) {
        for (const auto &[b, use] : uses_) {
          if (blockingOnly && use.release && !blocksAfterCredits(b, earlier.role, later.role)) continue;
          bool signalsAfter = false;
          for (const Event *x : use.signals)
            signalsAfter |= x->role == earlier.role && (x == &earlier || x->index > earlier.index);
          if (!signalsAfter) continue;
          for (const Event *w : use.waits)
            if (covers(k_, *w, later)) return true;
        }
        return false;
      };
      std::set<std::pair<ResourceId, ResourceId>> pairs;
      for (const Event *a : ws)
        for (const Event *b : ws) {
          if (a->role >= b->role || !pairs.insert({a->role, b->role}).second) continue;
          bool ba = after(*b, *a, true), ab = after(*a, *b, true);
          bool ordered = (ba && a->loops.empty()) || (ab && b->loops.empty()) ||
                         ((ba || ab) && after(*b, *a, false) && after(*a, *b, false));
          if (ordered) continue;
          ctx_.diags.build(DiagId::SafetyUnorderedWrites, b->op->range, name(a->role), name(b->role), name(v))
              .note(DiagId::NoteWrittenHere, a->op->range, name(v))
              .emit();
        }
    }
  }

  // ---- views that share bytes through an alias ----
  // The ring slots (stage % stages) a use of a staged view can name, from
  // its stage form over its loops' ranges; every slot when not known.
  std::set<int64_t> slotsOf(const Event &e, const StageRef &stage, const Resource &v) const {
    std::set<int64_t> all;
    for (int64_t i = 0; i < v.stages; ++i) all.insert(i);
    if (v.stages <= 1) return all;
    StageForm f = stageForm(k_, stage);
    if (!f.ok || !f.offset.isConstant()) return all;
    int64_t n = v.stages;
    std::set<int64_t> out = {((f.offset.constant % n) + n) % n};
    for (const auto &[id, c] : f.loops) {
      auto it = std::find_if(e.loops.begin(), e.loops.end(), [id = id](const IrStmt *l) { return l->loopId == id; });
      if (it == e.loops.end()) return all;
      const IrStmt &l = **it;
      std::optional<int64_t> first, count;
      if (l.step == 1 && l.start.constInt && l.stop.constInt && !(e.guarded && *it == e.loops.back())) {
        first = *l.start.constInt;
        count = std::max<int64_t>(0, *l.stop.constInt - *l.start.constInt);
      }
      std::set<int64_t> term;  // c * x mod n over the loop's values (any value when the range is not known)
      int64_t tries = count ? std::min(*count, n) : n;
      for (int64_t x = 0; x < tries; ++x) {
        int64_t value = satMul(c, satAdd(first.value_or(0), x));
        term.insert(((value % n) + n) % n);
      }
      std::set<int64_t> sum;
      for (int64_t a : out)
        for (int64_t t : term) sum.insert((a + t) % n);
      out = sum;
    }
    return out;
  }
  // The stage a use names for view v: the receiver's stage= operand, or a
  // read operand's own stage (a_s[k]).
  StageRef stageFor(const Event &e, ResourceId v) const {
    if (e.op->receiver == v) return stageOperand(*e.op);
    for (int8_t slot : e.op->info().effects.reads)
      if (effectResource(*e.op, slot) == v) return effectStage(*e.op, slot);
    return stageOperand(*e.op);
  }
  // The pool bytes [begin, end) a use of a view touches: the slots it can
  // name, or the whole view.
  std::vector<std::pair<int64_t, int64_t>> bytesOf(const Event &e, ResourceId id) const {
    const Resource &v = k_.resources[id];
    std::vector<std::pair<int64_t, int64_t>> out;
    StageRef stage = stageFor(e, id);
    if (!stage.present() || v.stages <= 1) {
      out.emplace_back(v.offset, satAdd(v.offset, v.totalBytes));
      return out;
    }
    for (int64_t slot : slotsOf(e, stage, v))
      out.emplace_back(satAdd(v.offset, satMul(slot, v.bytesPerStage)),
                       satAdd(v.offset, satMul(slot + 1, v.bytesPerStage)));
    return out;
  }
  static bool overlap(const std::vector<std::pair<int64_t, int64_t>> &a,
                      const std::vector<std::pair<int64_t, int64_t>> &b) {
    for (const auto &x : a)
      for (const auto &y : b)
        if (std::max(x.first, y.first) < std::min(x.second, y.second)) return true;
    return false;
  }
  // Where a role's access of a view is over: a generic access or a copy
  // that completes on a barrier at once; an asynchronous read (a TMA
  // store, a wgmma) at the role's next wait for all groups of its family,
  // tcgen05 work at the next commit, whose arrival comes when it is done
  // (nullopt: never).
  std::optional<size_t> accessEnd(const RoleEvents &r, const Event &e) const {
    const OpEffects &fx = e.op->info().effects;
    if (fx.group == AsyncGroup::None) return e.index;
    for (const Event &x : r.events) {
      const OpEffects &xf = x.op->info().effects;
      if (x.index <= e.index || x.conditional || x.guarded) continue;
      // tcgen05 work: a commit's arrival comes when it is done.
      if (fx.group == AsyncGroup::Mma && xf.signal == Signal::CommitArrive) return x.index;
      if (!xf.waitsGroup || xf.group != fx.group) continue;
      if (x.op->pendingGroups() == 0) return x.index;
    }
    return std::nullopt;
  }
  // Two roles touching the same bytes through two views (one declared
  // alias=True over the other, e.g. an epilogue tile over the tail of a
  // TMA ring): a write through one and any access through the other, in
  // different roles, need a barrier hand-off each way (one way when one
  // side runs once), as writes to one view do; the slots a ring use can
  // name decide whether the bytes meet (a stage of the ring the alias does
  // not cover needs nothing). A hand-off counts from where the earlier
  // access is over: a TMA store's read at its tma_store_wait.
  void checkAliasRaces() {
    std::set<std::pair<const Event *, const Event *>> reported;
    for (const RoleEvents &ra : roles_)
      for (const Event &w : ra.events)
        for (ResourceId p : written(w)) {
          if (k_.resources[p].kind != ResourceKind::View) continue;
          for (ResourceId q : sharing(p)) {
            if (q == p) continue;
            for (const RoleEvents &rb : roles_) {
              if (rb.role == ra.role) continue;
              for (const Event &x : rb.events) {
                std::vector<ResourceId> xw = written(x);
                bool writes = std::find(xw.begin(), xw.end(), q) != xw.end();
                if (!writes && !readsResource(x, q)) continue;
                if (!overlap(bytesOf(w, p), bytesOf(x, q))) continue;
                bool staged = stageFor(w, p).present() && stageFor(x, q).present();
                if (aliasOrdered(ra, w, rb, x, staged) || !reported.insert({std::min(&w, &x), std::max(&w, &x)}).second)
                  continue;
                ctx_.diags
                    .build(DiagId::SafetyAliasRace, w.op->range, name(ra.role),
                           fmt::format(
                               "'{}'{}", name(p),
                               stageOperand(*w.op).present()
                                   ? fmt::format(" at stage '{}'", sourceText(ctx_.sm, stageOperand(*w.op).expr->range))
                                   : ""),
                           name(rb.role), writes ? "writing" : "reading", name(q),
                           "no barrier orders the two each way (the later waits for a barrier the earlier signals "
                           "after its access is over)")
                    .note(writes                                           ? DiagId::NoteWrittenHere
                          : x.op->info().effects.group == AsyncGroup::Bulk ? DiagId::NoteAsyncReadHere
                                                                           : DiagId::NoteReadHere,
                          x.op->range, name(q))
                    .emit();
              }
            }
            checkAliasWithinRole(ra, w, p, q);
          }
        }
  }
  // One role of several warpgroups: each waits for its own MMA only, so a
  // generic write through an alias of bytes its MMA read must come after a
  // role sync that follows the wait (ThunderKittens syncs the consumers
  // before writing the finish block over the ring).
  void checkAliasWithinRole(const RoleEvents &r, const Event &w, ResourceId p, ResourceId q) {
    if (roleThreads(k_, r.role) <= 128 || w.op->info().effects.proxy == Proxy::Async) return;
    for (const Event &x : r.events) {
      const OpEffects &xf = x.op->info().effects;
      if (x.index >= w.index || xf.group != AsyncGroup::Mma || !readsResource(x, q)) continue;
      if (!overlap(bytesOf(w, p), bytesOf(x, q))) continue;
      std::optional<size_t> end = accessEnd(r, x);
      bool synced = false;
      for (const Event &sy : r.events)
        synced |= end && sy.op->info().effects.syncsRole && sy.index > *end && sy.index < w.index &&
                  (covers(k_, sy, w) || runsBefore(sy, w));
      if (synced) continue;
      ctx_.diags
          .build(DiagId::SafetyAliasRace, w.op->range, name(r.role), fmt::format("'{}'", name(p)), name(r.role),
                 "reading, in another of its warpgroups,", name(q),
                 "each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before the write "
                 "makes every warpgroup's wait come first")
          .note(DiagId::NoteReadHere, x.op->range, name(q))
          .emit();
      return;
    }
  }
  // W, in loops nested inside E's, runs before E in every iteration of
  // E's loops, unconditionally: a loop of waits that consumes every phase
  // it is given before E (when it runs no times, the trip-count check has
  // the signalling loop run none either).
  bool runsBefore(const Event &w, const Event &e) const {
    if (w.role != e.role || w.index >= e.index || w.loops.size() <= e.loops.size() || w.conditional || w.guarded)
      return false;
    return std::equal(e.loops.begin(), e.loops.end(), w.loops.begin());
  }
  // `staged`: both uses name ring stages, so a ring's release barrier
  // pairs them stage by stage.
  bool aliasOrdered(const RoleEvents &ra, const Event &a, const RoleEvents &rb, const Event &b, bool staged) const {
    // `later` in its role waits for a barrier that `earlier`'s role signals
    // once its access is over: 1 when that wait precedes `later` in its
    // loops, 2 when it is a loop of waits run before `later`, which consume
    // the phases of all earlier runs.
    // The hand-off may pass through other roles (a producer, then the MMA
    // role, then an epilogue): from the earlier access, a signal after it
    // reaches a wait of another role, whose later signals reach further, up
    // to four hops.
    auto after = [&](const Event &later, const RoleEvents &er, const Event &earlier, bool blockingOnly) {
      std::optional<size_t> end = accessEnd(er, earlier);
      int how = 0;
      if (!end) return how;
      // `from` signals count when they come after `afterIndex` in its role
      // (or are `from` itself, or the commit ending the access).
      std::function<void(const Event &, size_t, int)> reach = [&](const Event &from, size_t afterIndex, int hops) {
        for (const auto &[bar, use] : uses_) {
          if (blockingOnly && use.release) continue;
          // A release barrier whose first laps pass on credit lets the later
          // side run that many hand-offs ahead: for a whole view touched
          // once a round it orders only a lag of one.
          if (use.release && k_.resources[bar].count > 1 && !staged) continue;
          bool signalsAfter = false;
          for (const Event *x : use.signals) {
            if (x->role != from.role) continue;
            bool first = hops == 0;
            signalsAfter |=
                (first && (x == &from || x->index > afterIndex ||
                           (x->index == afterIndex && x->op->info().effects.signal == Signal::CommitArrive))) ||
                (!first && x->index > afterIndex && (covers(k_, from, *x) || runsBefore(from, *x)));
          }
          if (!signalsAfter) continue;
          for (const Event *wt : use.waits) {
            if (wt->role == later.role) {
              how = std::max(how, runsBefore(*wt, later) ? 2 : covers(k_, *wt, later) ? 1 : 0);
            } else if (hops < 3 && wt->role != from.role) {
              reach(*wt, wt->index, hops + 1);
            }
          }
        }
      };
      reach(earlier, *end, 0);
      return how;
    };
    int ba = after(b, ra, a, true), ab = after(a, rb, b, true);
    // One way is enough when the earlier side runs once, or the later side
    // runs once after all of the earlier's runs; otherwise both ways.
    return (ba && a.loops.empty()) || (ab && b.loops.empty()) || (ba == 2 && b.loops.empty()) ||
           (ab == 2 && a.loops.empty()) || ((ba || ab) && after(b, ra, a, false) && after(a, rb, b, false));
  }

  // ---- release while an asynchronous read is in flight ----
  struct InFlight {
    ResourceId view;  // a view, or a register fragment the tensor core reads or writes
    AffineForm stage;
    bool stageKnown;
    const Operation *op;
    bool written = false;  // the fragment is the operation's accumulator
  };
  // In-flight reads of one async family: issued but not in a committed
  // group, and committed groups, oldest first.
  struct GroupState {
    std::vector<InFlight> open;
    std::vector<std::vector<InFlight>> committed;
  };
  struct AsyncState {
    std::map<AsyncGroup, GroupState> groups;
    // Reads the elected thread has waited for, which the role's other
    // threads have not yet synchronised with (a role sync ends them).
    std::vector<InFlight> unsynced;
    template <class F>
    void eachList(F f) {
      for (auto &[g, gs] : groups) {
        f(gs.open);
        for (auto &c : gs.committed) f(c);
      }
      f(unsynced);
    }
    template <class F>
    void eachRead(F f) const {
      for (const auto &[g, gs] : groups) {
        for (const InFlight &x : gs.open) f(x, false);
        for (const auto &c : gs.committed)
          for (const InFlight &x : c) f(x, false);
      }
      for (const InFlight &x : unsynced) f(x, true);
    }
  };

  // The views each barrier releases: those its waiters write after waiting
  // on it (they overwrite them once the barrier completes), with how far
  // the wait's stage leads the write's (nullopt: not a constant).
  // A write is released by the nearest wait that covers it: a wait on
  // another barrier between them (a ring's own `empty` inside a loop over
  // tiles whose resident buffer has its own release barrier) is what lets
  // that write go ahead.
  void collectReleases() {
    auto nearer = [&](const Event &w, const Event &e) {
      for (const RoleEvents &r : roles_) {
        if (r.role != e.role) continue;  // covers() relates events of one role
        for (const Event &x : r.events)
          if (x.op->info().effects.waits != kNone && x.index > w.index && x.index < e.index &&
              effectResource(*x.op, x.op->info().effects.waits) != effectResource(*w.op, w.op->info().effects.waits) &&
              covers(k_, x, e) && covers(k_, w, x))
            return true;
      }
      return false;
    };
    for (const auto &[b, use] : uses_)
      for (const Event *w : use.waits)
        for (const RoleEvents &r : roles_)
          for (const Event &e : r.events)
            if (ResourceId v = effectResource(*e.op, e.op->info().effects.writes);
                v != kNoResource && covers(k_, *w, e) && !nearer(*w, e)) {
              bool kw, ke;
              AffineForm fw = formOf(stageOperand(*w->op), kw), fe = formOf(effectStage(*e.op, kReceiver), ke);
              releases_[b].try_emplace(v, kw && ke ? IntExprTable::constantDifference(fw, fe) : std::nullopt);
              writers_[{b, v}].insert(e.role);
            }
  }

  // Whether role `signaller`'s arrival on `b` can be what a wait of role
  // `waiter` consumes. Roles taking turns on both sides of one barrier in
  // the same order (an ordered sequence barrier: each turn waits for the
  // previous turn's signal) hand it on to the next role only.
  bool consumedBy(ResourceId b, ResourceId signaller, ResourceId waiter) const {
    const BarrierFacts &f = facts_.barrier(b);
    // With credits for one turn (count 1) a wait takes the previous turn's
    // signal; with more, one further back: not modelled, any waiter may.
    if (!f.signalTurns || !f.waitTurns || f.signalTurns->roles != f.waitTurns->roles ||
        !f.signalTurns->has(signaller) || k_.resources[b].count != 1)
      return true;
    const std::vector<ResourceId> &rs = f.signalTurns->roles;
    size_t i = static_cast<size_t>(std::find(rs.begin(), rs.end(), signaller) - rs.begin());
    return rs[(i + 1) % rs.size()] == waiter;
  }
  // An ordered sequence barrier (consumedBy) with credits for the first
  // turns only: the turns after them each wait for the previous turn's
  // signal, so `waiter`'s waits block on `signaller`'s signals when it
  // takes the next turn and its first turn is past the credits.
  bool blocksAfterCredits(ResourceId b, ResourceId signaller, ResourceId waiter) const {
    const BarrierFacts &f = facts_.barrier(b);
    if (!f.signalTurns || !f.waitTurns || f.signalTurns->roles != f.waitTurns->roles || k_.resources[b].count != 1 ||
        !f.signalTurns->has(signaller) || !f.waitTurns->has(waiter) || !consumedBy(b, signaller, waiter))
      return false;
    const std::vector<ResourceId> &rs = f.waitTurns->roles;
    auto position = static_cast<int64_t>(std::find(rs.begin(), rs.end(), waiter) - rs.begin());
    return position >= k_.resources[b].count;  // credits = count on a release barrier
  }
  // Whether role `role`'s arrival on `b` releases view `v`: a wait on `b`
  // covers a write of `v` in a role that consumes that arrival.
  bool releasesTo(ResourceId b, ResourceId v, ResourceId role) const {
    auto rel = releases_.find(b);
    if (rel == releases_.end() || !rel->second.count(v)) return false;
    auto w = writers_.find({b, v});
    if (w == writers_.end()) return false;
    return std::any_of(w->second.begin(), w->second.end(), [&](ResourceId x) { return consumedBy(b, role, x); });
  }

  // The stage of view `v` an arrival at stage `r` of barrier `b` frees for
  // rewriting, relative to r: it satisfies the wait at stage r + credits (a
  // release barrier's first lap is free: credits = count), which covers the
  // write at that stage minus the wait's lead. nullopt when the lead is not
  // known.
  std::optional<int64_t> freedShift(ResourceId b, ResourceId v) const {
    auto it = releases_.find(b);
    if (it == releases_.end()) return std::nullopt;
    auto lead = it->second.find(v);
    if (lead == it->second.end() || !lead->second) return std::nullopt;
    if (*lead->second == INT64_MIN) return std::nullopt;  // no negation (adversarial stage constants)
    return satAdd(facts_.barrier(b).release ? k_.resources[b].count : 0, -*lead->second);
  }

  // A read of a stage after the role released it in the same iteration:
  // the arrival frees the slot for the producer's next write into it (the
  // write at the released stage plus the ring's depth), which may land
  // while the read runs. Reads of the next lap's data (another stage form)
  // are not this.
  void checkReadAfterRelease() {
    for (const RoleEvents &r : roles_)
      for (const Event &a : r.events) {
        const OpEffects &fx = a.op->info().effects;
        if (fx.signal != Signal::Arrive) continue;
        ResourceId b = effectResource(*a.op, fx.signals);
        auto rel = releases_.find(b);
        if (b == kNoResource || rel == releases_.end()) continue;
        bool ka;
        AffineForm fa = formOf(stageOperand(*a.op), ka);
        if (!ka) continue;
        std::set<ResourceId> reported;
        for (const Event &e : r.events) {
          if (e.index <= a.index || e.loops != a.loops) continue;
          for (int8_t slot : e.op->info().effects.reads) {
            ResourceId v = effectResource(*e.op, slot);
            if (v == kNoResource || !releasesTo(b, v, r.role) || reported.count(v)) continue;
            std::optional<int64_t> shift = freedShift(b, v);
            bool ke;
            AffineForm fe = formOf(effectStage(*e.op, slot), ke);
            std::optional<int64_t> d = ke ? IntExprTable::constantDifference(fa, fe) : std::nullopt;
            // released stage + shift is the write that reuses the slot read
            // at stage fe: fe + depth.
            if (!shift || !d || satAdd(*d, *shift) != k_.resources[v].stages) continue;
            reported.insert(v);
            ctx_.diags
                .build(DiagId::SafetyReadAfterRelease, e.op->range, name(r.role), stageOf(v, effectStage(*e.op, slot)),
                       name(v), name(b))
                .note(DiagId::NoteReleasedHere, a.op->range, name(v))
                .emit();
          }
        }
      }
  }

  // The threads whose reads one thread's completion wait covers: a
  // warpgroup for wgmma (its wait_group retires the warpgroup's groups), the
  // whole role for a single-thread operation (the elected thread that also
  // arrives), a warp for the rest (a warp's loads have returned when any of
  // its lanes goes on).
  int64_t completionUnit(const Event &e, int64_t all) const {
    const OpEffects &fx = e.op->info().effects;
    if (fx.single) return all;
    if (fx.group == AsyncGroup::Mma && targetInfo(ctx_.module.target).mma == MmaPath::Wgmma) return 128;
    return 32;
  }
  static const char *unitName(int64_t threads, int64_t all) {
    if (threads >= all) return "role";
    return threads >= 128 ? "warpgroup" : threads >= 32 ? "warp" : "thread";
  }

  // A release arrive by fewer threads than the units whose reads it
  // releases: one thread per role after its own warpgroup's wgmma wait lets
  // the producer refill a stage another warpgroup still reads. A role sync
  // between the reads and the arrive orders them all.
  void checkPartialRelease() {
    for (const RoleEvents &r : roles_) {
      int64_t all = roleThreads(k_, r.role);
      for (const Event &a : r.events) {
        const OpEffects &fx = a.op->info().effects;
        if (fx.signal != Signal::Arrive) continue;
        ResourceId b = effectResource(*a.op, fx.signals);
        auto rel = releases_.find(b);
        if (b == kNoResource || rel == releases_.end() || a.threads <= 0) continue;
        int64_t span = all / a.threads;  // threads per arrival
        for (const Event &e : r.events) {
          // Reads before it in its loop nest, in enclosing code, or in loops
          // nested inside its loop.
          size_t common = std::min(e.loops.size(), a.loops.size());
          if (e.index >= a.index || !std::equal(e.loops.begin(), e.loops.begin() + common, a.loops.begin())) continue;
          ResourceId read = kNoResource;
          for (int8_t slot : e.op->info().effects.reads)
            if (ResourceId v = effectResource(*e.op, slot);
                read == kNoResource && v != kNoResource && releasesTo(b, v, r.role))
              read = v;
          int64_t unit = completionUnit(e, all);
          if (read == kNoResource || span <= unit || all <= unit) continue;
          // An asynchronous read ends at its group's wait: a sync orders it
          // only after that wait (the first one after the read).
          size_t from = e.index;
          if (e.op->info().effects.group != AsyncGroup::None)
            for (const Event &w : r.events)
              if (w.index > e.index && w.index < a.index && w.op->info().effects.waitsGroup &&
                  w.op->info().effects.group == e.op->info().effects.group) {
                from = w.index;
                break;
              }
          if (roleSyncBetween(from, a)) continue;
          if (!reportedPartial_.insert({a.op, read}).second) break;  // one operation, several events
          ctx_.diags
              .build(DiagId::SafetyPartialRelease, a.op->range, name(r.role), stageText(ctx_.sm, stageOperand(*a.op)),
                     name(read), name(b), unitName(span, all), unitName(unit, all))
              .note(DiagId::NoteReadHere, e.op->range, name(read))
              .emit();
          break;
        }
      }
    }
  }

  void checkReleaseInFlight() {
    // A read can stay in flight across as many iterations as the deepest
    // ring or the largest pending count allows: walk that many (at most 9:
    // a ring counts as at most 8 stages, and pending is 0 to 7).
    int64_t carried = 2;
    for (const Resource &v : k_.resources)
      if (v.kind == ResourceKind::View) carried = std::max(carried, std::min<int64_t>(v.stages, 8) + 1);
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) carried = std::max(carried, e.op->pendingGroups() + 2);
    carriedIterations_ = static_cast<int>(std::min<int64_t>(carried, 9));
    for (const RoleBlock &rb : k_.roles) {
      bool async = false;
      for (const RoleEvents &r : roles_)
        if (r.block == &rb)
          for (const Event &e : r.events) async |= trackedGroup(*e.op) != AsyncGroup::None;
      if (!async) continue;
      AsyncState st;
      walkAsync(rb.body, rb.role, st, 0);
    }
  }

  // The async family whose reads outlive the operation: tensor-core groups
  // (not on mma.sync targets, where the MMA is synchronous) and bulk stores.
  AsyncGroup trackedGroup(const Operation &op) const {
    AsyncGroup g = op.info().effects.group;
    if (g == AsyncGroup::Mma && targetInfo(ctx_.module.target).mma == MmaPath::MmaSync) return AsyncGroup::None;
    return g;
  }

  AffineForm formOf(const StageRef &s, bool &known) const {
    known = !s.present() || s.ix != kNoIntExpr;
    return s.present() && known ? k_.ints.form(s.ix) : AffineForm{};
  }

  // Loops deeper than this are followed through one iteration only (each
  // level walks its body twice, so the cost doubles per level).
  static constexpr int kMaxCarriedLoopDepth = 4;
  int carriedIterations_ = 2;  // iterations walked per loop at the outer two levels

  void walkAsync(const std::vector<IrStmt> &body, ResourceId role, AsyncState &st, int depth) {
    for (const IrStmt &s : body) switch (s.kind) {
      case IrStmt::Kind::Op: asyncOp(s.op, role, st); break;
      case IrStmt::Kind::For: {
        // A loop that may run zero times leaves what was in flight before it
        // as it was: its waits may not run.
        std::optional<AsyncState> entry;
        if (!loopRunsAtLeastOnce(k_, s)) entry = st;
        walkAsync(s.body, role, st, depth + 1);  // the first iteration
        if (depth >= kMaxCarriedLoopDepth) {
          if (entry) st = merged(st, *entry);
          break;
        }
        // Later iterations, as many as a read may stay in flight across (a
        // ring's depth, a pending count): each time, a stage named by the
        // loop variable means one step earlier. What stays in flight leaves
        // the loop.
        for (int i = 1; i < (depth < 2 ? carriedIterations_ : 2); ++i) {
          st.eachList([&](std::vector<InFlight> &l) { shiftStages(l, s); });
          walkAsync(s.body, role, st, depth + 1);
        }
        // After the loop, what is still in flight was issued in its last
        // iteration: the loop variable is stop - 1 there.
        st.eachList([&](std::vector<InFlight> &l) { lastIteration(l, s); });
        if (entry) st = merged(st, *entry);
        break;
      }
      case IrStmt::Kind::If: {
        AsyncState taken = st, other = st;
        walkAsync(s.body, role, taken, depth);
        walkAsync(s.orelse, role, other, depth);
        st = merged(taken, other);
        break;
      }
      case IrStmt::Kind::Let: break;
      }
  }

  // What is in flight after either of two paths (the sides of an `if`; a
  // loop's iterations and its skipping): the reads of both, their groups
  // aligned from the newest.
  static AsyncState merged(AsyncState a, AsyncState b) {
    AsyncState out;
    for (AsyncGroup g : {AsyncGroup::Mma, AsyncGroup::Bulk}) {
      GroupState &x = a.groups[g], &y = b.groups[g];
      bool aLonger = x.committed.size() >= y.committed.size();
      GroupState m = aLonger ? x : y;
      const GroupState &rest = aLonger ? y : x;
      addMissing(m.open, rest.open);
      for (size_t i = 0; i < rest.committed.size(); ++i)
        addMissing(m.committed[m.committed.size() - rest.committed.size() + i], rest.committed[i]);
      out.groups[g] = std::move(m);
    }
    out.unsynced = a.unsynced;
    addMissing(out.unsynced, b.unsynced);
    return out;
  }

  // Adds to `into` the reads of `from` it does not hold yet (both branches
  // of an `if` carry what was in flight before it).
  static void addMissing(std::vector<InFlight> &into, const std::vector<InFlight> &from) {
    for (const InFlight &f : from) {
      bool have = false;
      for (const InFlight &g : into)
        have |= g.op == f.op && g.view == f.view && g.stageKnown == f.stageKnown && g.stage == f.stage;
      if (!have) into.push_back(f);
    }
  }

  void shiftStages(std::vector<InFlight> &group, const IrStmt &loop) {
    for (InFlight &f : group) {
      if (!f.stageKnown) continue;
      for (const auto &[atom, coeff] : f.stage.terms)
        if (k_.ints.atomIsLeaf(atom, IntOp::LoopVar) && k_.ints.atomValue(atom) == loop.loopId) {
          int64_t delta;
          if (loop.step <= 0 || __builtin_mul_overflow(coeff, loop.step, &delta) ||
              __builtin_sub_overflow(f.stage.constant, delta, &f.stage.constant))
            f.stageKnown = false;  // a run-time step: the earlier stage has no form
        }
    }
  }

  // Rewrites stages over the loop's variable to their value in its last
  // iteration (stop - 1, for a loop of step 1 whose stop has a form);
  // otherwise the stage is no longer known.
  void lastIteration(std::vector<InFlight> &group, const IrStmt &loop) {
    for (InFlight &f : group) {
      if (!f.stageKnown || k_.ints.splitLoopVar(f.stage, loop.loopId).first == 0) continue;
      std::optional<AffineForm> last;
      if (loop.step == 1 && loop.stop.ix != kNoIntExpr) {
        AffineForm stop = k_.ints.form(loop.stop.ix);
        if (!__builtin_sub_overflow(stop.constant, 1, &stop.constant))
          last = k_.ints.substituteLoopVar(f.stage, loop.loopId, stop);
      }
      if (last)
        f.stage = *last;
      else
        f.stageKnown = false;
    }
  }

  void asyncOp(const Operation &op, ResourceId role, AsyncState &st) {
    const OpEffects &fx = op.info().effects;
    int64_t all = roleThreads(k_, role);
    // A generic write by the role's threads into a view an async read may
    // still be reading, or that the elected thread alone has waited for.
    if (ResourceId v = effectResource(op, fx.writes);
        v != kNoResource && fx.proxy == Proxy::Generic && k_.resources[v].kind == ResourceKind::View) {
      bool known;
      AffineForm stage = formOf(effectStage(op, kReceiver), known);
      st.eachRead([&](const InFlight &f, bool waited) {
        if (f.view != v || !sameSlot(f, stage, known) || !reportedInFlight_.insert({&op, f.view}).second) return;
        ctx_.diags
            .build(DiagId::SafetyOverwriteInFlight, op.range, name(role), stageOf(v, effectStage(op, kReceiver)),
                   name(v), f.op->info().name,
                   waited ? "the elected thread has waited for it, but the role's other threads have not: "
                            "lm.role_sync() after the wait"
                          : waitHint(*f.op, true))
            .note(DiagId::NoteAsyncReadHere, f.op->range, name(v))
            .emit();
      });
    }
    if (fx.syncsRole) st.unsynced.clear();
    AsyncGroup g = trackedGroup(op);
    if (g == AsyncGroup::None) checkFragmentUse(op, role, st);
    if (g != AsyncGroup::None) {
      GroupState &gs = st.groups[g];
      // The register fragments a tensor-core operation reads (A) and writes
      // (the accumulator) belong to it until its group is waited for.
      if (g == AsyncGroup::Mma) {
        for (int8_t slot : fx.reads)
          if (ResourceId v = effectResource(op, slot); v != kNoResource && k_.resources[v].kind == ResourceKind::Regs)
            gs.open.push_back({v, {}, true, &op, false});
        if (ResourceId v = effectResource(op, fx.writes);
            v != kNoResource && k_.resources[v].kind == ResourceKind::Regs)
          gs.open.push_back({v, {}, true, &op, true});
      }
      if (fx.proxy == Proxy::Async)
        for (int8_t slot : fx.reads) {
          ResourceId v = effectResource(op, slot);
          if (v == kNoResource || k_.resources[v].kind != ResourceKind::View) continue;
          bool known;
          AffineForm f = formOf(effectStage(op, slot), known);
          gs.open.push_back({v, f, known, &op});
        }
      if (fx.closesGroup) {
        gs.committed.push_back(std::move(gs.open));
        gs.open.clear();
      } else if (fx.waitsGroup) {
        while (static_cast<int64_t>(gs.committed.size()) > op.pendingGroups()) {
          // Only the waiting threads know the reads are over.
          if (executingThreads(k_, role, op) < all)
            st.unsynced.insert(st.unsynced.end(), gs.committed.front().begin(), gs.committed.front().end());
          gs.committed.erase(gs.committed.begin());
        }
      }
    }
    // A commit's arrival comes when the tensor core is done: it releases
    // nothing early. A plain arrive releases now.
    if (fx.signal != Signal::Arrive) return;
    ResourceId b = effectResource(op, fx.signals);
    auto rel = releases_.find(b);
    if (b == kNoResource || rel == releases_.end()) return;
    StageRef released = stageOperand(op);
    bool known;
    AffineForm stage = formOf(released, known);
    st.eachRead([&](const InFlight &f, bool waited) {
      if (waited || !releasesTo(b, f.view, role)) return;
      // The release lets the waiter rewrite stage r + shift: the same buffer
      // as the read when the stages agree modulo the view's depth.
      int64_t depth = k_.resources[f.view].stages;
      std::optional<int64_t> shift = freedShift(b, f.view);
      std::optional<int64_t> d =
          known && f.stageKnown && shift ? IntExprTable::constantDifference(f.stage, stage) : std::nullopt;
      if (d) *d -= *shift;
      if (depth > 1 && d && *d % depth != 0) return;
      if (!reportedInFlight_.insert({&op, f.view}).second) return;
      if (depth > 1 && !d) {
        ctx_.diags
            .build(DiagId::SafetyUnprovenReleaseInFlight, op.range, name(role), stageText(ctx_.sm, released),
                   name(f.view), name(b), f.op->info().name,
                   f.stageKnown ? std::string("in an earlier iteration")
                                : std::string("earlier, at a stage with no normal form,"))
            .note(DiagId::NoteAsyncReadHere, f.op->range, name(f.view))
            .emit();
        return;
      }
      ctx_.diags
          .build(DiagId::SafetyReleaseInFlight, op.range, name(role), stageOf(f.view, released), name(f.view), name(b),
                 f.op->info().name, waitHint(*f.op, false))
          .note(DiagId::NoteAsyncReadHere, f.op->range, name(f.view))
          .emit();
    });
  }

  // An operation of the role's threads that reads or writes a register
  // fragment a tensor-core operation still in flight reads or writes: its
  // registers are the wgmma's until the wait that retires its group (PTX:
  // accessing them before is undefined). Each thread's own wait covers its
  // registers, so only reads not yet waited for count.
  void checkFragmentUse(const Operation &op, ResourceId role, const AsyncState &st) {
    const OpEffects &fx = op.info().effects;
    std::vector<ResourceId> used;
    for (int8_t slot : fx.reads) used.push_back(effectResource(op, slot));
    used.push_back(effectResource(op, fx.writes));
    if (op.result.kind == ValueKind::Resource) used.push_back(op.result.resource);
    for (ResourceId v : used) {
      if (v == kNoResource || k_.resources[v].kind != ResourceKind::Regs) continue;
      st.eachRead([&](const InFlight &f, bool waited) {
        // Once per fragment and wgmma: the first use is where to wait.
        if (waited || f.view != v || !reportedInFlight_.insert({f.op, v}).second) return;
        ctx_.diags
            .build(DiagId::SafetyFragmentInFlight, op.range, name(role), name(v), f.op->info().name,
                   f.written ? "writes" : "reads", waitHint(*f.op, true))
            .note(DiagId::NoteIssuedHere, f.op->range, f.op->info().name)
            .emit();
      });
    }
  }

  // "stage k of " for a staged view, nothing for a view of one stage.
  std::string stageOf(ResourceId view, const StageRef &s) const {
    return k_.resources[view].stages > 1 ? "stage " + stageText(ctx_.sm, s) + " of " : std::string();
  }

  // Whether an in-flight read names the slot of `stage` (equal modulo the
  // view's depth; an unknown stage may be any).
  bool sameSlot(const InFlight &f, const AffineForm &stage, bool known) const {
    int64_t depth = k_.resources[f.view].stages;
    if (depth <= 1) return true;
    std::optional<int64_t> d = known && f.stageKnown ? IntExprTable::constantDifference(f.stage, stage) : std::nullopt;
    return !d || *d % depth == 0;
  }

  // How to end an async read before its buffer is reused.
  std::string waitHint(const Operation &reader, bool overwrite) const {
    if (reader.info().effects.group == AsyncGroup::Bulk)
      return overwrite ? "wait for it first: lm.tma_store_wait(), then lm.role_sync() so every thread's stores "
                         "come after the elected thread's wait"
                       : "wait for it first: lm.tma_store_wait() before the arrive";
    if (targetInfo(ctx_.module.target).mma == MmaPath::Wgmma)
      return overwrite ? "wait for it first: lm.mma_commit() after it, then lm.mma_wait()"
                       : "wait for it first: lm.mma_commit() after it, then lm.mma_wait() before the arrive";
    return "signal the release with lm.commit, whose arrival comes when the tensor core is done";
  }

  // barrier -> views its waiters write after waiting -> the wait's lead
  std::map<ResourceId, std::map<ResourceId, std::optional<int64_t>>> releases_;
  // Outermost loops whose body is one running count (regionOf), by role
  // block and barrier; nullopt: tried, not one.
  mutable std::map<std::tuple<const RoleEvents *, ResourceId, const IrStmt *>, std::optional<Region>> regionCache_;
  // (barrier, view) -> the roles whose wait on the barrier covers a write of the view
  std::map<std::pair<ResourceId, ResourceId>, std::set<ResourceId>> writers_;
  std::set<std::pair<const Operation *, ResourceId>> reportedInFlight_;
  std::set<std::pair<const Operation *, ResourceId>> reportedPartial_;

  const PassContext &ctx_;
  const Kernel &k_;
  const std::vector<RoleEvents> &roles_;
  const std::map<ResourceId, BarrierFacts> &uses_;
  const KernelFacts &facts_;
  std::map<ResourceId, std::set<std::pair<ResourceId, ResourceId>>> guards_;  // view -> {(barrier, writer)}
};

}  // namespace

void checkProgramSafety(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  SafetyChecker(ctx, k, f).run();
}

}  // namespace cake::passes
