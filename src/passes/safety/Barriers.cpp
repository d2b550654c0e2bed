// Barriers are signalled as they are awaited (ProgramSafety's sub-checks):
//  - checkSignalled: every awaited barrier is signalled by someone;
//  - checkArrivalCounts: with as many arrivals per phase as its init_count
//    says (the analysis layer counts them);
//  - checkTripCounts: as often as it is awaited;
//  - checkCircularWait: roles do not wait on each other before either
//    signals (circular wait);
//  - checkTxBytes: transaction bytes per phase fit the mbarrier's counter.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "passes/safety/FirstLap.h"
#include "sema/ConstEval.h"

namespace cake::passes::safety {

namespace {

// An mbarrier's transaction count is a 20-bit field (PTX ISA, mbarrier):
// at most 2^20 - 1 bytes pending per phase.
constexpr int64_t kMaxTxBytes = (1 << 20) - 1;

class BarrierChecks : public FirstLap {
public:
  using FirstLap::FirstLap;

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
      if (uneven) continue;
      // Roles taking turns each complete whole phases on their own: each
      // must give init_count arrivals (a phase of the one that gives fewer
      // never completes; one that gives more completes early).
      if (use.signalTurns) {
        std::set<int64_t> counts;
        for (const auto &[role, ra] : use.arrivals)
          if (use.signalTurns->has(role)) counts.insert(ra.count);
        if (counts.size() > 1) {
          for (const auto &[role, ra] : use.arrivals) {
            if (!use.signalTurns->has(role) || ra.count == bar.initCount) continue;
            ctx_.diags
                .build(DiagId::SafetyArrivalCount, ra.sites.front().first->op->range, bar.name, bar.initCount, ra.count,
                       fmt::format("role '{}' gives {} ({}); the roles take turns, so a phase gets the "
                                   "arrivals of one of them, and each must give init_count",
                                   name(role), ra.count, siteText(ra.sites.front())))
                .note(DiagId::NoteBarrierDeclaredHere, bar.range, bar.name)
                .emit();
          }
          continue;
        }
      }
      if (use.arrivalsPerPhase == bar.initCount) continue;
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
    std::vector<const Event *> events = countedEvents(use, role, signals);
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

  // The run-time trip counts of an event's loops not proven non-negative
  // (a loop that may run no iteration), as normal forms; nullopt when a
  // bound has no form.
  // `outer`, when given, is the outermost loop's range (roles taking turns).
  std::optional<std::vector<AffineForm>> unprovenTrips(const Event &e, const IterationRange *outer) const {
    std::vector<AffineForm> out;
    for (size_t i = 0; i < e.loops.size(); ++i) {
      std::optional<AffineForm> n =
          i == 0 && outer ? IntExprTable::combine(outer->end, outer->first, -1) : levelTrips(k_, e, i);
      if (!n) return std::nullopt;
      if (!n->isConstant() && lowerBound(k_, *n).value_or(-1) < 0) out.push_back(*n);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Counts equal as forms are equal at run time where every loop runs; a
  // loop that may run no iteration counts 0, not its (negative) form. So the
  // uses are grouped by the loops not proven to run, and each group must
  // count alike in the two roles (a producer's range(0, n) against a
  // consumer's range(0, n), or 3 T + 5 T against 8 T over T tiles); a
  // consumer that peels its first use out of range(1, n) agrees with
  // range(0, n) only when n >= 1: at n = 0 it waits for a phase nothing
  // completes. A role taking turns with others counts for all of them, its
  // turn loop read as the iterations they run between them, as phases()
  // does (ping-pong consumers each peeling a tile's first k-step out of
  // range(1, KS) wait once per tile at KS = 0).
  bool clampSafe(const BarrierFacts &use, ResourceId signaller, ResourceId waiter) const {
    std::map<std::vector<AffineForm>, PolyForm> groups;
    auto addAll = [&](ResourceId role, bool signals, int64_t sign) {
      const std::optional<Turns> &turns = signals ? use.signalTurns : use.waitTurns;
      std::optional<IterationRange> shared;
      if (turns && turns->has(role)) {
        const IrStmt *L = turns->loop.at(role);
        if (L->stop.ix == kNoIntExpr) return false;
        shared = IterationRange{turns->start, k_.ints.form(L->stop.ix)};
      }
      for (const Event *e : countedEvents(use, role, signals)) {
        if (shared && e->loops.empty()) return false;
        std::optional<std::vector<AffineForm>> key = unprovenTrips(*e, shared ? &*shared : nullptr);
        std::optional<PolyForm> n = shared ? tripForm(k_, *e, *shared) : tripForm(k_, *e);
        if (!key || !n) return false;
        std::optional<PolyForm> sum = PolyForm::add(groups[*key], *n, sign);
        if (!sum) return false;
        groups[*key] = *sum;
      }
      return true;
    };
    if (!addAll(signaller, true, 1) || !addAll(waiter, false, -1)) return false;
    for (const auto &[key, diff] : groups)
      if (!key.empty() && !diff.terms.empty()) return false;
    return true;
  }

  // A role that alone signals and waits on a barrier (its own copies into
  // its own ring) is compared with itself: more phases signalled than
  // waited for leaves the last copies unwaited, landing in shared memory
  // while the block reads on or after it has exited (a refill loop with no
  // wait loop after it). Fewer is left to the stage-sequence rules (a wait
  // on the stage just used again counts as another wait here).
  void ownRingTripCounts(ResourceId b, const BarrierFacts &use) {
    if (use.signallers.size() != 1 || use.signallers != use.waiters || k_.resources[b].credits > 0) return;
    ResourceId role = *use.signallers.begin();
    std::optional<PolyForm> ns = phases(use, role, true), nw = phases(use, role, false);
    std::optional<int64_t> d = ns && nw ? PolyForm::constantDifference(*ns, *nw) : std::nullopt;
    if (!d || *d <= 0) return;
    const Event *last = nullptr;
    for (const Event *s : use.signals)
      if (s->role == role && (!last || s->index > last->index)) last = s;
    if (!last) return;
    ctx_.diags.report(
        DiagId::SafetyTripCountMismatch, last->op->range, name(b),
        ns->isConstant() && nw->isConstant()
            ? fmt::format("role '{}' signals it {} time(s) but waits on it {} time(s): the copies of the last {} "
                          "stage(s) are never waited for, and may land while the block reads on or after it exits",
                          name(role), ns->constant(), nw->constant(), *d)
            : fmt::format("role '{}' signals it {} time(s) more than it waits on it: the copies of the last stages "
                          "are never waited for, and may land while the block reads on or after it exits",
                          name(role), *d));
  }

  std::vector<const Event *> countedEvents(const BarrierFacts &use, ResourceId role, bool signals) const {
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
        AffineForm f = formOf(k_, stageOperand(*e->op), known);
        if (!known || sites.insert({e->loops, f}).second) events.push_back(e);
      }
    }
    return events;
  }

  // A role for messages; one taking turns names its partners: "role 'wg0'
  // (taking turns with 'wg1')".
  std::string turnText(const BarrierFacts &use, ResourceId role, bool signals) const {
    const std::optional<Turns> &turns = signals ? use.signalTurns : use.waitTurns;
    std::string out = fmt::format("role '{}'", name(role));
    if (!turns || !turns->has(role)) return out;
    std::string others;
    for (ResourceId r : turns->roles)
      if (r != role) others += fmt::format("{}'{}'", others.empty() ? "" : ", ", name(r));
    return out + " (taking turns with " + others + ")";
  }

  // Where a role uses a barrier, for messages: "once and in range(1, n)".
  std::string loopNestKeys(const BarrierFacts &use, ResourceId role, bool signals) const {
    std::vector<std::string> parts;
    for (const Event *e : countedEvents(use, role, signals)) {
      std::string n = loopNestKey(ctx_.sm, *e);
      n = n.empty() ? std::string("once") : "in " + n;
      if (std::find(parts.begin(), parts.end(), n) == parts.end()) parts.push_back(n);
    }
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? (i + 1 == parts.size() ? " and " : ", ") : "") + parts[i];
    return out;
  }

  // Whether an event's stage changes with loop L's variable.
  bool stageReads(const Event &e, const IrStmt &L) const {
    bool known;
    AffineForm f = formOf(k_, stageOperand(*e.op), known);
    if (!known) return true;
    std::set<uint32_t> loops;
    k_.ints.loopsIn(f, loops);
    return loops.count(L.loopId) > 0;
  }
  // The plain mismatches of one signal site against one wait whose counts
  // have no common normal form (run-time bounds not proven positive), read
  // from the two loop nests level by level (steps equal, no guards):
  //  - the same nest but for one level of step 1 whose trip count differs
  //    by a constant c (range(0, T + 1) against range(0, T)): the counts
  //    differ by c times the other levels' trips, whenever the loops run;
  //  - one nest the other's with loops added inside (a release moved out
  //    of its loop): the counts differ unless those loops run once in all.
  // A release barrier's credits let waits outrun signals by up to its
  // stage count: a difference it provably covers is no mismatch.
  // Returns why they differ, "" when the nests run equal counts (the same
  // trips level by level, bounds written differently), nullopt when the
  // nests do not tell.
  std::optional<std::string> nestMismatch(ResourceId b, const Event &s, const Event &w) const {
    if (s.conditional || w.conditional || s.guarded || w.guarded) return std::nullopt;
    auto tripsOf = [&](const IrStmt &l) -> std::optional<AffineForm> {
      if (l.step != 1 || l.start.ix == kNoIntExpr || l.stop.ix == kNoIntExpr) return std::nullopt;
      return IntExprTable::combine(k_.ints.form(l.stop.ix), k_.ints.form(l.start.ix), -1);
    };
    auto same = [&](const IrStmt &x, const IrStmt &y) {
      return sameBound(k_, x.start, y.start) && sameBound(k_, x.stop, y.stop) &&
             sameBound(k_, x.stepValue, y.stepValue);
    };
    size_t common = std::min(s.loops.size(), w.loops.size());
    int64_t count = k_.resources[b].count;
    bool release = facts_.barrier(b).release;
    // Credits cover `waitsMore` extra waits per run of the constant levels
    // `others` when every other level is constant and the product fits.
    auto covered = [&](int64_t waitsMore, const std::vector<const IrStmt *> &others) {
      if (!release || waitsMore <= 0) return false;
      int64_t total = waitsMore;
      for (const IrStmt *l : others) {
        std::optional<AffineForm> n = tripsOf(*l);
        if (!n || !n->isConstant()) return false;
        total = satMul(total, std::max<int64_t>(0, n->constant));
      }
      return total <= count;
    };
    if (s.loops.size() == w.loops.size()) {
      std::optional<size_t> at;
      int64_t c = 0;
      for (size_t i = 0; i < common; ++i) {
        if (same(*s.loops[i], *w.loops[i])) continue;
        std::optional<AffineForm> ns = tripsOf(*s.loops[i]), nw = tripsOf(*w.loops[i]);
        std::optional<int64_t> d = ns && nw ? IntExprTable::constantDifference(*ns, *nw) : std::nullopt;
        if (!d || (at && *d != 0)) return std::nullopt;
        if (*d == 0) continue;
        at = i;
        c = *d;
      }
      if (!at) return std::string();  // equal trips level by level: equal counts
      // Waits repeating one stage over the longer loop wait for one phase.
      if (c < 0 && !stageReads(w, *w.loops[*at])) return std::nullopt;
      std::vector<const IrStmt *> others;
      for (size_t i = 0; i < common; ++i)
        if (i != *at) others.push_back(s.loops[i]);
      if (covered(-c, others)) return std::string();
      return fmt::format("the loop over '{}' runs {} iteration(s) {} in role '{}', each with the same uses, so the "
                         "counts differ whenever the loops run",
                         s.loops[*at]->loopVar, c > 0 ? c : -c, c > 0 ? "more" : "fewer", name(s.role));
    }
    for (size_t i = 0; i < common; ++i)
      if (!same(*s.loops[i], *w.loops[i])) return std::nullopt;
    const Event &deeper = s.loops.size() > w.loops.size() ? s : w;
    if (&deeper == &w)
      for (size_t i = common; i < w.loops.size(); ++i)
        if (!stageReads(w, *w.loops[i])) return std::nullopt;
    std::string extra;
    for (size_t i = common; i < deeper.loops.size(); ++i) {
      std::optional<AffineForm> n = tripsOf(*deeper.loops[i]);
      if (!n || (n->isConstant() && n->constant == 1)) return std::nullopt;
      extra += fmt::format("{}'{}'", extra.empty() ? "" : " and ", deeper.loops[i]->loopVar);
    }
    return fmt::format("role '{}' uses it once per iteration of the loop{} over {}, which role '{}' uses it outside "
                       "of, so the counts agree only when {} once",
                       name(deeper.role), deeper.loops.size() - common > 1 ? "s" : "", extra,
                       name((&deeper == &s ? w : s).role), deeper.loops.size() - common > 1 ? "they run" : "it runs");
  }

  // Each pair of a signalling and a waiting role: the phases one completes
  // and the other consumes must be equal. Constant counts are compared as
  // numbers; symbolic ones as normal forms (equal, or provably different by
  // a constant); anything else is unproven.
  void checkTripCounts() {
    for (const auto &[b, use] : uses_) {
      ownRingTripCounts(b, use);
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
          if (d && diff == 0 && !clampSafe(use, s->role, w->role)) {
            ctx_.diags.report(
                DiagId::SafetyUnprovenTripCount, w->op->range, name(b),
                fmt::format("{} signals it {} and {} waits on it {}, which agree only where no "
                            "loop's stop lies below its start, and a loop whose stop is not bounded by its start "
                            "may run none; bound the stop by the start (lm.max(start, ...)) or make the count a "
                            "grid dimension, which the launcher keeps at least 1",
                            turnText(use, s->role, true), loopNestKeys(use, s->role, true),
                            turnText(use, w->role, false), loopNestKeys(use, w->role, false)));
            continue;
          }
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
          if (!turns && oneEach)
            if (std::optional<std::string> why = nestMismatch(b, *site->second.sites.front().first, *w)) {
              if (why->empty()) continue;
              ctx_.diags
                  .build(DiagId::SafetyTripCountMismatch, w->op->range, name(b),
                         fmt::format("role '{}' signals it {} and role '{}' waits on it {}: {}", name(s->role),
                                     nest(*s), name(w->role), nest(*w), *why))
                  .note(DiagId::NoteSignalHere, s->op->range, name(s->role), name(b))
                  .emit();
              continue;
            }
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
  // Whether a guarded wait `w` (on `b`, in a loop, first running after the
  // loop's first iteration) blocks signals of `c` its role gives in that
  // loop that a signaller of `b` needs before its first signal of `b`: it
  // waits on `c` in a loop that its first signal of `b` comes after (all of
  // that loop's stages), or on a barrier a relay role signals after each
  // wait on `c` in the same loops, with more iterations than run before the
  // wait, or a run-time count.
  // `before` is how many iterations of the loop run before the wait first
  // does: the role signals that many times first, which a signaller
  // needing no more than that does not wait past.
  bool laterSignalsNeeded(const Event &w, ResourceId c, ResourceId b, int64_t before,
                          const std::map<std::pair<ResourceId, ResourceId>, const Event *> &firstSignal) const {
    const IrStmt *L = w.loops.back();
    bool signalsInLoop = false;
    for (const RoleEvents &r : roles_)
      if (r.role == w.role)
        for (const Event &e : r.events)
          signalsInLoop |= effectResource(*e.op, e.op->info().effects.signals) == c &&
                           std::find(e.loops.begin(), e.loops.end(), L) != e.loops.end();
    if (!signalsInLoop) return false;
    // The barriers whose signals follow c's: c, and those a role other than
    // w's signals after a blocking wait on one of them (a relay), in the
    // same loops or around them. A relayed barrier "needs more" where its
    // first signal needs more of c's signals than run before w: the relay
    // waits over a loop of more iterations than that first, or signals
    // under a guard that first holds after that many.
    std::map<ResourceId, bool> relayed = {{c, false}};
    for (bool grew = true; grew;) {
      grew = false;
      for (const RoleEvents &r : roles_) {
        if (r.role == w.role) continue;
        for (const Event &x : r.events) {
          ResourceId xb = effectResource(*x.op, x.op->info().effects.waits);
          auto in = relayed.find(xb);
          // A guarded wait needs the signal whenever it first runs; one under
          // a run-time condition may not run, and is not followed.
          if (x.conditional || in == relayed.end()) continue;
          for (const Event &y : r.events) {
            ResourceId out = effectResource(*y.op, y.op->info().effects.signals);
            // y first runs after every iteration of x's loops that y is
            // not in (its own loops, or sibling loops after them).
            size_t common = 0;
            while (common < x.loops.size() && common < y.loops.size() && x.loops[common] == y.loops[common]) ++common;
            if (y.index <= x.index || out == kNoResource || y.conditional || firstLapPasses(r.role, xb, y)) continue;
            bool more = in->second;
            for (size_t i = common; i < x.loops.size(); ++i) {
              std::optional<int64_t> n = tripsOf(x.loops[i]);
              more |= !n || *n > before;
            }
            // A guarded event first runs after that many iterations of its
            // innermost loop.
            for (const Event *g : {&x, &y}) {
              if (!g->guarded || g->loops.empty()) continue;
              const IrStmt *l = g->loops.back();
              std::optional<int64_t> d = l->start.ix == kNoIntExpr
                                             ? std::nullopt
                                             : IntExprTable::constantDifference(g->first, k_.ints.form(l->start.ix));
              more |= !d || *d / std::max<int64_t>(1, l->step) + 1 > before;
            }
            auto [it, added] = relayed.emplace(out, more);
            if (added || (more && !it->second)) {
              it->second = more;
              grew = true;
            }
          }
        }
      }
    }
    for (ResourceId q : facts_.barrier(b).signallers) {
      auto first = firstSignal.find({q, b});
      if (q == w.role || first == firstSignal.end()) continue;
      const Event &sb = *first->second;
      for (const RoleEvents &r : roles_)
        if (r.role == q)
          for (const Event &x : r.events) {
            ResourceId xb = effectResource(*x.op, x.op->info().effects.waits);
            auto in = relayed.find(xb);
            // A wait whose first lap passes (credits, a release barrier)
            // needs nothing of this lap.
            if (x.index >= sb.index || in == relayed.end() || firstLapPasses(q, xb, sb)) continue;
            if (in->second) return true;
            for (const IrStmt *l : x.loops) {
              if (std::find(sb.loops.begin(), sb.loops.end(), l) != sb.loops.end()) continue;  // encloses sb
              std::optional<int64_t> n = tripsOf(l);
              if (!n || *n > before) return true;
            }
          }
    }
    return false;
  }

  void checkCircularWait() {
    // A node: (role, barrier it signals) -> its first signal event.
    // A meeting at a named barrier (lm.sync) is a signal of it, and a wait
    // for every other role of it.
    std::map<std::pair<ResourceId, ResourceId>, const Event *> firstSignal;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        if (ResourceId c = effectResource(*e.op, e.op->info().effects.signals); c != kNoResource)
          firstSignal.try_emplace({r.role, c}, &e);
        if (ResourceId c = effectResource(*e.op, e.op->info().effects.meets); c != kNoResource)
          firstSignal.try_emplace({r.role, c}, &e);
      }
    // Edges: node -> (the wait that blocks it, the node that wait needs).
    using Node = std::pair<ResourceId, ResourceId>;
    std::map<Node, std::vector<std::pair<const Event *, Node>>> edges;
    for (const auto &[node, sig] : firstSignal)
      for (const RoleEvents &r : roles_) {
        if (r.role != node.first) continue;
        for (const Event &w : r.events) {
          if (w.index >= sig->index) break;
          if (ResourceId nb = effectResource(*w.op, w.op->info().effects.meets); nb != kNoResource) {
            for (ResourceId other : k_.resources[nb].consumers)
              if (other != r.role) edges[node].push_back({&w, Node{other, nb}});
            continue;
          }
          ResourceId b = effectResource(*w.op, w.op->info().effects.waits);
          // A conditional wait counts: whenever it runs, it needs the signal.
          if (b == kNoResource) continue;
          // On a release barrier the first `count` stages are free; a wait
          // past them needs the signal `count` stages earlier, which only
          // signallers whose first signal is at or below it may give (of
          // roles taking turns, the one whose turn it was).
          std::optional<int64_t> needed;
          if (facts_.barrier(b).release) {
            bool runs = false;
            std::optional<int64_t> m = maxStageBefore(w, *sig, runs);
            // A stage the analysis cannot bound is safety.unproven-stage's.
            if (!runs || !m || *m < k_.resources[b].count) continue;
            needed = *m - k_.resources[b].count;
          }
          // A wait guarded off its loop's first iteration (`if t > 0`) does
          // not run before that iteration's signals, unless a signaller of
          // its barrier needs this role's later signals before its own
          // first (`if k == 3: wait(fin)` where fin's signaller waits on
          // every k-step's stage first).
          // A signal after that loop (not in it) comes after the whole
          // loop's first pass, the guarded wait included.
          if (w.guarded && w.loops.back()->start.ix != kNoIntExpr &&
              std::find(sig->loops.begin(), sig->loops.end(), w.loops.back()) != sig->loops.end())
            if (auto d = IntExprTable::constantDifference(w.first, k_.ints.form(w.loops.back()->start.ix));
                d && *d > 0 &&
                !laterSignalsNeeded(w, node.second, b, *d / std::max<int64_t>(1, w.loops.back()->step), firstSignal))
              continue;
          for (ResourceId s : facts_.barrier(b).signallers)
            if (std::optional<int64_t> f = needed ? firstSignalStage(s, b) : std::nullopt; !f || *f <= *needed)
              edges[node].push_back({&w, Node{s, b}});
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
        bool meeting = k_.resources[path[i].second.second].kind == ResourceKind::NamedBarrier;
        text += fmt::format("{}role '{}' {} '{}', which {} {} only later", i ? "; " : "", name(w->role),
                            meeting ? "syncs on" : "waits on", name(path[i].second.second),
                            who == w->role ? std::string("it") : "role '" + name(who) + "'",
                            meeting ? "reaches" : "signals");
      }
      auto builder = ctx_.diags.build(DiagId::SafetyCircularWait, path.front().first->op->range, text);
      for (size_t i = 1; i < path.size(); ++i)
        builder.note(k_.resources[path[i].second.second].kind == ResourceKind::NamedBarrier
                         ? DiagIdWithArgs<2>(DiagId::NoteSyncHere)
                         : DiagIdWithArgs<2>(DiagId::NoteWaitHere),
                     path[i].first->op->range, name(path[i].first->role), name(path[i].second.second));
      builder.emit();
      for (const auto &p : path) done.insert(p.second);
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
};

}  // namespace

void checkSignalled(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  BarrierChecks(ctx, k, f).checkSignalled();
}
void checkArrivalCounts(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  BarrierChecks(ctx, k, f).checkArrivalCounts();
}
void checkTripCounts(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  BarrierChecks(ctx, k, f).checkTripCounts();
}
void checkCircularWait(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  BarrierChecks(ctx, k, f).checkCircularWait();
}
void checkTxBytes(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  BarrierChecks(ctx, k, f).checkTxBytes();
}

}  // namespace cake::passes::safety
