// The stages a role names on a barrier (ProgramSafety's sub-checks; the
// forms they follow are analysis/StageCount's):
//  - checkStageForms: stage indices the analyses can relate;
//  - checkStageSequence: each role's uses of a barrier name its running
//    count of uses: stage s is mbarrier s mod count in phase s div count, so
//    the stages a role names must run 0, 1, 2, ... (a loop variable from the
//    next count, step 1, in one loop, not restarting in an outer one);
//  - checkTurnOrder: roles taking turns waiting on one ring wait in turn.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"

using cake::ast::Expr;

namespace cake::passes::safety {

namespace {

class StageChecks : public Checker {
public:
  using Checker::Checker;

  // Stage indices the analyses can relate: a constant, or an enclosing
  // loop's variable times a constant plus a constant; a barrier use whose
  // stage is one of a running count over its outermost loop's body
  // (a region); and a view stage an operation reads that a wait of its role
  // of either kind names, in the same form (the read-before-wait check
  // compares them by that form): a persistent loop's first key tile,
  // `w * n_kv`, read right after the wait for it. The stage argument of an
  // operation that uses no barrier and reads its receiver's stage
  // (`sa_s.load(stage=j * h)`) is such a read.
  void checkStageForms() {
    std::set<const Expr *> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        std::vector<StageRef> stages = {stageOperand(*e.op)};
        for (int8_t slot : fx.reads) stages.push_back(effectStage(*e.op, slot));
        bool readsOwnStage =
            barrierOf(e) == kNoResource && std::find(fx.reads.begin(), fx.reads.end(), kReceiver) != fx.reads.end();
        for (size_t i = 0; i < stages.size(); ++i) {
          const StageRef &s = stages[i];
          if (!s.present() || analysis::linearStage(k_, ctx_.sm, s, e).ok || (i == 0 && inRegion(r, e))) continue;
          if ((i > 0 || readsOwnStage) && namedByWait(r, s)) continue;
          if (reported.insert(s.expr).second)
            ctx_.diags.report(DiagId::SafetyUnprovenStage, s.expr->range, sourceText(ctx_.sm, s.expr->range));
        }
      }
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
  // `base + n` as text: "5", "K // BK - 1".
  static std::string plusText(const std::string &base, const AffineForm &f, int64_t n) {
    if (f.isConstant()) return std::to_string(f.constant);
    if (n == 0) return base;
    return fmt::format("{} {} {}", base, n > 0 ? "+" : "-", n > 0 ? n : -n);
  }
  // Whether a wait of the role, whose stage the analyses relate, names the
  // stage `s` in the same normal form.
  bool namedByWait(const RoleEvents &r, const StageRef &s) const {
    for (const Event &w : r.events) {
      if (effectResource(*w.op, w.op->info().effects.waits) == kNoResource) continue;
      StageRef ws = stageOperand(*w.op);
      if (!ws.present() || !sameStage(k_, ws, s)) continue;
      if (analysis::linearStage(k_, ctx_.sm, ws, w).ok || inRegion(r, w)) return true;
    }
    return false;
  }
  // Whether an event's stage on its barrier is one of a running count over
  // its outermost loop's body (which relates guarded and straight-line
  // uses that one loop nest does not).
  bool inRegion(const RoleEvents &r, const Event &e) const {
    ResourceId b = barrierOf(e);
    return b != kNoResource && !e.loops.empty() && facts_.stageRegion(r, b, e.loops.front()).has_value();
  }

  // Each role's stages of a barrier, in program order, must be 0, 1, 2, ...:
  // the phase a wait expects and the mbarrier an arrival lands on are
  // derived from the stage index. Loop bounds and stages are compared as
  // normal forms, so `stage=k - 1` in a loop from 1 to n and `stage=n - 1`
  // after it continue the sequence. A wait on a release barrier may run
  // ahead of it by less than the ring's depth (it waits for a later release,
  // which implies the one it needs).
  // Whether role `r` signals `b` before `w`, in the same loops, at the
  // stage `w` waits on.
  bool ownSignalBefore(const RoleEvents &r, const Event &w, ResourceId b) const {
    bool kw;
    AffineForm fw = formOf(k_, stageOperand(*w.op), kw);
    if (!kw) return false;
    for (const Event &x : r.events) {
      if (x.index >= w.index || x.loops != w.loops || effectResource(*x.op, x.op->info().effects.signals) != b)
        continue;
      // A signal under a guard or condition is one only for a wait under
      // the same guard (`if j < 7:` around the copy and not the wait leaves
      // the last wait with nothing to wait for).
      if (x.conditional || (x.guarded && !(w.guarded && !w.conditional && x.first == w.first && x.end == w.end)))
        continue;
      bool kx;
      AffineForm fx = formOf(k_, stageOperand(*x.op), kx);
      if (kx && fx == fw) return true;
    }
    return false;
  }

  // A wait of role `r` on `b` for a stage it signalled in an earlier loop
  // over the same iterations (every copy issued, then each waited for in
  // order: a prefetch), with the loops' stages alike, at most one lap of
  // the ring, and no signal of `b` after them: each wait names its stage's
  // latest phase. The signal loop is in the running count; the wait loop
  // neither breaks nor advances it. nullptr when not so.
  // Only the role's first signals of a barrier it alone signals qualify:
  // a fresh barrier's first lap, so no older phase of the same parity is
  // left unwaited on any of its mbarriers (a copy before the loop, or an
  // earlier lap of copies, would let a wait pass on the wrong phase). In
  // enclosing loops (t * 4 + j), each iteration's lap is the next block of
  // the running count, waited for in full before the next iteration's
  // copies.
  // The role's own ring: it alone signals and waits on `b`, and every view
  // its copies on `b` write has one slot per stage of `b` and shares no
  // bytes with another view but in the same slots, so stage s is slot s
  // mod count of each (a
  // single-slot view takes every stage's copy into one buffer; another
  // role's waits, or an alias, see the slots the rules below reason about
  // from elsewhere).
  // Why not (empty when it is).
  std::string notOwnRing(const RoleEvents &r, ResourceId b) const {
    const std::set<ResourceId> self = {r.role};
    if (facts_.barrier(b).signallers != self) return "other roles signal it too";
    for (ResourceId o : facts_.barrier(b).waiters)
      if (o != r.role) return fmt::format("role '{}' waits on it too", name(o));
    for (const Event &x : r.events) {
      if (effectResource(*x.op, x.op->info().effects.signals) != b) continue;
      ResourceId v = effectResource(*x.op, x.op->info().effects.writes);
      if (v == kNoResource) continue;
      if (k_.resources[v].stages != k_.resources[b].count)
        return fmt::format("'{}' has {} slot(s) for its {} stages", name(v), k_.resources[v].stages,
                           k_.resources[b].count);
      for (ResourceId o : sharing(v))
        if (!sameSlots(v, o)) return fmt::format("'{}' shares bytes with '{}' in other slots", name(v), name(o));
    }
    return {};
  }
  bool ownRing(const RoleEvents &r, ResourceId b) const { return notOwnRing(r, b).empty(); }
  const Event *prefetchedSignal(const RoleEvents &r, const Event &w, ResourceId b) const {
    if (!ownRing(r, b)) return nullptr;
    if (const Event *x = aheadSignal(r, w, b)) return x;
    if (const Event *x = drainedSignal(r, w, b)) return x;
    const Event *found = nullptr;
    const IrStmt *loop = nullptr;  // the loop of the role's first signals of b
    for (const Event &x : r.events) {
      if (x.index >= w.index) break;
      if (effectResource(*x.op, x.op->info().effects.signals) != b) continue;
      if (!loop) loop = x.loops.empty() ? nullptr : x.loops.back();
      found = nullptr;  // the latest signal decides
      std::optional<int64_t> trips;
      if (!x.alternative && loop && !x.loops.empty() && x.loops.back() == loop &&
          sameStagesInEarlierLoop(x, stageOperand(*x.op), w, stageOperand(*w.op), &trips) && trips &&
          *trips <= k_.resources[b].count)
        found = &x;
      if (!loop) return nullptr;  // a first signal outside a loop
    }
    // Inside enclosing loops (a prefetch per tile of a persistent loop), the
    // earlier laps are the earlier iterations' signal loops, each waited for
    // in full by the wait loop before the next one starts: only if every
    // signal of b is in the signal loop.
    if (found && w.loops.size() > 1)
      for (const Event &x : r.events)
        if (effectResource(*x.op, x.op->info().effects.signals) == b && (x.loops.empty() || x.loops.back() != loop))
          return nullptr;
    return found ? found : refilledSignal(r, w, b);
  }
  // A wait loop that copies ahead of itself (the single-role multistage
  // loop of cp.async kernels: copies of stages 0 to d - 1 before the loop,
  // then each iteration waits for stage j and copies stage j + d, the last
  // iterations' copies left out by a guard `if j < n - d`): the wait's
  // stage is the loop variable plus a constant, starting at stage 0, in a
  // loop in no enclosing loop, with no use of `b` by the role before the
  // loop but copies, and every signal of `b` in the loop is at the wait's
  // stage plus d, 0 < d <= count (d < count when the copy comes before the
  // wait in the iteration). Each wait then names a stage whose copy was
  // issued, no copy of the next lap of its mbarrier has been issued (so its
  // phase is the stage's latest), and every older lap was waited for by an
  // earlier iteration. The loop's copies run from its first iteration to
  // its last but d (a guard that leaves out more would leave the last waits
  // hanging, fewer would copy stages no one waits for); the signals stay in
  // the running count, so the copies before the loop are stages 0 to d - 1.
  // What a copy-ahead loop that matches but for its trip count, which has
  // no lower bound, leaves unproven (`unproven` set, nullptr returned).
  struct AheadUnproven {
    const IrStmt *loop = nullptr;
    int64_t need = 0, ahead = 0;  // the iterations it needs, the stages it copies ahead
    std::string count;            // the loop's count, as the author wrote its bounds
  };
  const Event *aheadSignal(const RoleEvents &r, const Event &w, ResourceId b, AheadUnproven *unproven = nullptr) const {
    if (w.loops.size() != 1 || w.guarded || w.conditional || w.alternative) return nullptr;
    const IrStmt *L = w.loops.front();
    LinearStage lw = analysis::linearStage(k_, ctx_.sm, stageOperand(*w.op), w);
    if (!lw.ok || lw.loop != L || lw.nest != 1 || lw.scale != 1 || L->step != 1 || L->start.ix == kNoIntExpr)
      return nullptr;
    std::optional<AffineForm> first = lw.at(k_.ints.form(L->start.ix));
    if (!first || !first->isConstant() || first->constant != 0) return nullptr;
    bool kw;
    AffineForm fw = formOf(k_, stageOperand(*w.op), kw);
    if (!kw) return nullptr;
    int64_t count = k_.resources[b].count;
    const Event *ahead = nullptr;
    std::optional<AheadUnproven> open;  // the trip count's lower bound not known
    for (const Event &x : r.events) {
      bool inL = !x.loops.empty() && x.loops.front() == L;
      if (x.index < w.index && !inL) {  // before the loop: copies only
        if (effectResource(*x.op, x.op->info().effects.waits) == b) return nullptr;
        continue;
      }
      if (!inL || effectResource(*x.op, x.op->info().effects.signals) != b) continue;
      if (x.loops.size() != 1 || x.conditional || x.alternative) return nullptr;
      bool kx;
      AffineForm fx = formOf(k_, stageOperand(*x.op), kx);
      std::optional<int64_t> d = kx ? IntExprTable::constantDifference(fx, fw) : std::nullopt;
      if (!d || *d <= 0 || *d > count || (x.index < w.index && *d == count)) return nullptr;
      // The copies run from the loop's first iteration to d before its end
      // (the guard leaves out the last d): as many as the waits that need
      // them, no more, and the copies before the loop are the first d.
      // Or they run to its end and a drain loop after it waits for the
      // last d (drainAfter).
      // The loop runs at least d iterations (or, with a drain, at least
      // none), proven: with fewer, the copies before it outnumber its waits.
      std::optional<IterationRange> rx = iterationRange(k_, x);
      if (!rx || L->stop.ix == kNoIntExpr || rx->first != k_.ints.form(L->start.ix)) return nullptr;
      std::optional<int64_t> left = IntExprTable::constantDifference(k_.ints.form(L->stop.ix), rx->end);
      std::optional<AffineForm> trips = IntExprTable::combine(k_.ints.form(L->stop.ix), k_.ints.form(L->start.ix), -1);
      if (!trips) return nullptr;
      int64_t need = left == d ? *d : 0;
      std::optional<int64_t> low = lowerBound(k_, plusConstant(*trips, -need));
      if (low && *low < 0) return nullptr;
      if (!low) {
        auto text = [&](const Value &v) {
          return v.isConstInt() ? std::to_string(*v.constInt)
                 : v.expr       ? sourceText(ctx_.sm, v.expr->range)
                                : std::string("?");
        };
        std::string n = L->start.isConstInt() && *L->start.constInt == 0
                            ? text(L->stop)
                            : fmt::format("{} - ({})", text(L->stop), text(L->start));
        open = AheadUnproven{L, need, *d, n};
      }
      if (left != d && !(left == 0 && drainAfter(r, w, b, lw, *d))) return nullptr;
      if (ahead && IntExprTable::constantDifference(fx, formOf(k_, stageOperand(*ahead->op), kx)) != 0) return nullptr;
      if (!ahead) ahead = &x;
    }
    if (ahead && open) {
      if (unproven) *unproven = *open;
      return nullptr;
    }
    return ahead;
  }
  // The drain of a copy-ahead loop whose copies run to its end: a later
  // loop in no enclosing loop waits for the d stages copied but not waited
  // for, in order (its first stage is the copy-ahead wait's stage at the
  // loop's stop, its trip count d), with no signal of `b` after the
  // copy-ahead loop. Each of its waits then names its stage's latest phase
  // (no copy goes further) and the older laps were waited for in the loop.
  // Its first wait, or nullptr.
  const Event *drainAfter(const RoleEvents &r, const Event &w, ResourceId b, const LinearStage &lw, int64_t d) const {
    const IrStmt *L = w.loops.front();
    std::optional<AffineForm> next = lw.at(k_.ints.form(L->stop.ix));
    if (!next) return nullptr;
    const Event *drain = nullptr;
    for (const Event &x : r.events) {
      if (x.index <= w.index || (!x.loops.empty() && x.loops.front() == L)) continue;
      if (effectResource(*x.op, x.op->info().effects.signals) == b) return nullptr;
      if (drain || effectResource(*x.op, x.op->info().effects.waits) != b) continue;
      if (x.loops.size() != 1 || x.guarded || x.conditional || x.alternative) return nullptr;
      const IrStmt *D = x.loops.front();
      LinearStage lx = analysis::linearStage(k_, ctx_.sm, stageOperand(*x.op), x);
      if (!lx.ok || lx.loop != D || lx.nest != 1 || lx.scale != 1 || D->step != 1 || D->start.ix == kNoIntExpr ||
          D->stop.ix == kNoIntExpr ||
          IntExprTable::constantDifference(k_.ints.form(D->stop.ix), k_.ints.form(D->start.ix)) != d)
        return nullptr;
      std::optional<AffineForm> first = lx.at(k_.ints.form(D->start.ix));
      if (!first || *first != *next) return nullptr;
      drain = &x;
    }
    return drain;
  }
  // A wait in the drain loop of a copy-ahead loop (drainAfter): the
  // copy-ahead loop's signal, or nullptr.
  const Event *drainedSignal(const RoleEvents &r, const Event &w, ResourceId b,
                             AheadUnproven *unproven = nullptr) const {
    if (w.loops.size() != 1) return nullptr;
    for (const Event &a : r.events) {
      if (a.index >= w.index || a.loops.size() != 1 || a.loops == w.loops ||
          effectResource(*a.op, a.op->info().effects.waits) != b)
        continue;
      AheadUnproven open;
      const Event *x = aheadSignal(r, a, b, &open);
      if (!x && open.loop && unproven) {
        // Its drain, were the count bounded: the copy-ahead loop's question.
        *unproven = open;
        return nullptr;
      }
      if (!x) continue;
      bool ka, kx;
      std::optional<int64_t> d =
          IntExprTable::constantDifference(formOf(k_, stageOperand(*x->op), kx), formOf(k_, stageOperand(*a.op), ka));
      LinearStage la = analysis::linearStage(k_, ctx_.sm, stageOperand(*a.op), a);
      const Event *drain = d && ka && kx ? drainAfter(r, a, b, la, *d) : nullptr;
      bool kd, kw;
      if (drain && drain->loops == w.loops &&
          formOf(k_, stageOperand(*drain->op), kd) == formOf(k_, stageOperand(*w.op), kw) && kd && kw)
        return x;
    }
    return nullptr;
  }
  // Whether a wait of role `r` on `b` inside `loop` is a prefetched one.
  bool hasPrefetchedWait(const RoleEvents &r, ResourceId b, const IrStmt &loop) const {
    for (const Event &w : r.events)
      if (effectResource(*w.op, w.op->info().effects.waits) == b && !w.alternative &&
          std::find(w.loops.begin(), w.loops.end(), &loop) != w.loops.end() && prefetchedSignal(r, w, b))
        return true;
    return false;
  }
  // A wait loop over the stages a later loop refilled: each iteration of
  // the refill loop waits for a stage and then copies into the same slot
  // one lap on (`lm.wait(got, stage=j)`, then a copy at `stage=j + 4` on a
  // ring of 4), and the wait loop waits for those stages in the same order
  // (`j` over range(4, 8)), at most one lap, with no signal of `b` since the
  // refill loop's first: the refill's wait completed the slot's older
  // phase, so each wait names its stage's latest. Loops in no enclosing
  // loop only. The refill loop's own waits are checked as any other.
  const Event *refilledSignal(const RoleEvents &r, const Event &w, ResourceId b) const {
    const Event *first = nullptr, *last = nullptr;  // the refill loop's first and latest signal
    for (const Event &x : r.events) {
      if (x.index >= w.index) break;
      if (effectResource(*x.op, x.op->info().effects.signals) != b) continue;
      if (x.alternative || x.loops.size() != 1) return nullptr;
      if (!last || last->loops != x.loops) first = &x;
      last = &x;
    }
    int64_t count = k_.resources[b].count;
    std::optional<int64_t> trips;
    if (!last || w.loops.size() != 1 ||
        !sameStagesInEarlierLoop(*last, stageOperand(*last->op), w, stageOperand(*w.op), &trips) || !trips ||
        *trips > count)
      return nullptr;
    bool kx;
    AffineForm fx = formOf(k_, stageOperand(*last->op), kx);
    for (const Event &x : r.events) {  // every signal of the refill loop at that stage
      if (x.index < first->index || x.index > last->index || effectResource(*x.op, x.op->info().effects.signals) != b)
        continue;
      bool k;
      AffineForm f = formOf(k_, stageOperand(*x.op), k);
      if (!kx || !k || f != fx) return nullptr;
    }
    for (const Event &e : r.events) {  // a wait before them in the iteration, one lap behind
      bool ke;
      if (!kx || e.index >= first->index || e.loops != first->loops || e.conditional || e.guarded || e.alternative ||
          effectResource(*e.op, e.op->info().effects.waits) != b)
        continue;
      AffineForm fe = formOf(k_, stageOperand(*e.op), ke);
      if (ke && IntExprTable::constantDifference(fx, fe) == count) return last;
    }
    return nullptr;
  }

  void checkStageSequence() {
    std::set<const IrStmt *> unprovenAhead;  // copy-ahead loops reported unproven-copy-ahead
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
        if (waits && prefetchedSignal(r, e, b)) continue;  // outside the running count
        StageRef s = stageOperand(*e.op);
        LinearStage ls = analysis::linearStage(k_, ctx_.sm, s, e);
        std::optional<Region> region;
        if (!e.loops.empty()) region = facts_.stageRegion(r, b, e.loops.front());
        // Prefetched waits stand outside the running count, so a region over
        // a loop that holds them does not describe it (it breaks at such a
        // wait, which is skipped): its other uses are checked one by one.
        if (region && hasPrefetchedWait(r, b, *region->loop)) region.reset();
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
        // A role that alone signals a barrier it waits on waits for its own
        // signals: each wait names the stage of a signal the role gave
        // before it in the same iteration (the same loops, the same stage);
        // another stage is one nothing signals, whose parity a fresh
        // barrier may already report complete.
        if (waits && k_.resources[b].credits <= 0 && !facts_.barrier(b).release &&
            facts_.barrier(b).signallers == std::set<ResourceId>{r.role} &&
            std::count(k_.resources[b].consumers.begin(), k_.resources[b].consumers.end(), r.role) &&
            !ownSignalBefore(r, e, b)) {
          AheadUnproven open;
          if (ownRing(r, b)) {
            aheadSignal(r, e, b, &open);                    // a wait of the copy-ahead loop
            if (!open.loop) drainedSignal(r, e, b, &open);  // or of its drain
          }
          if (open.loop) {
            // Once per copy-ahead loop (its drain's waits ask the same).
            if (unprovenAhead.insert(open.loop).second)
              ctx_.diags.report(
                  DiagId::SafetyUnprovenCopyAhead,
                  open.loop->stop.expr ? open.loop->stop.expr->range : open.loop->range, open.loop->loopVar,
                  open.need > 0 ? fmt::format("runs at least {} iterations", open.need)
                                : std::string("has no negative count (its drain loop starts at its stop)"),
                  name(r.role), open.ahead, name(b), open.count);
            next[b] = std::nullopt;
            continue;
          }
          std::string ring = notOwnRing(r, b);
          bad(fmt::format(
              "role '{}' alone signals it, so a wait must name the stage of a signal it gave before, in "
              "the same iteration; stage {} is not one{}",
              name(r.role), text,
              ring.empty() ? std::string()
                           : " (a wait for copies of an earlier loop needs a ring of the role's own: " + ring + ")"));
          next[b] = std::nullopt;
          continue;
        }
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
          // at one use: said there, once. Or it is one only if a run-time
          // span is not negative: unproven, said at the first use.
          if (region->unprovenSpan) {
            if (&e == region->first) {
              const IrStmt &L = *region->unprovenSpan;
              ctx_.diags.report(DiagId::SafetyUnprovenSpan, at, name(r.role), name(b), region->loop->loopVar, L.loopVar,
                                fmt::format("lm.range({}, {})",
                                            L.start.expr ? sourceText(ctx_.sm, L.start.expr->range) : "?",
                                            L.stop.expr ? sourceText(ctx_.sm, L.stop.expr->range) : "?"));
              next[b] = std::nullopt;
            }
            continue;
          }
          if (region->badAt) {
            if (&e == region->badAt) bad(region->why);
            continue;
          }
          if (&e != region->first) continue;
          const IrStmt &O = *region->loop;
          // Roles taking turns over O run its iterations at step 1 between
          // them, from the first role's start.
          const std::optional<Turns> &turns = waits ? facts_.barrier(b).waitTurns : facts_.barrier(b).signalTurns;
          bool turn = turnsOver(facts_.barrier(b), r.role, &O, waits);
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
          // Before any use there is no stage just used: a first wait on
          // stage -1 waits on the parity a fresh barrier reports complete.
          bool again = IntExprTable::constantDifference(ls.offset, next[b]->form) == -1;
          if (again && next[b]->any) {
            if (!waits && (next[b]->loops != e.loops || next[b]->stage != ls.offset))
              bad("the previous use already signalled that stage, so its phase gets the arrivals of both");
            continue;
          }
          follows(ls.offset, "the next stage of the sequence is {}");
          if (next[b])
            next[b] = NextStage{plusConstant(ls.offset, 1), plusText(text, ls.offset, 1), e.loops, ls.offset, true};
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
                .note(effectResource(*other.op, other.op->info().effects.waits) != kNoResource
                          ? DiagIdWithArgs<2>(DiagId::NoteWaitHere)
                          : DiagIdWithArgs<2>(DiagId::NoteSignalHere),
                      other.op->range, name(r.role), name(b))
                .emit();
          }
          continue;
        }
        size_t depth = std::find(e.loops.begin(), e.loops.end(), &L) - e.loops.begin();
        if (!ls.notRunning.empty()) {
          bad(ls.notRunning);
          continue;
        }
        // Under a guard that narrows its innermost loop to one iteration
        // (`if k == 3:`), a use runs once per iteration of the loop around.
        std::optional<int64_t> guardedTrips =
            e.guarded && !e.conditional ? IntExprTable::constantDifference(e.end, e.first) : std::nullopt;
        bool once = guardedTrips == 1 && e.loops.back()->step == 1 && depth + ls.nest + 1 == e.loops.size();
        if (depth + ls.nest != e.loops.size() && !once) {
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
        else if (ls.nest == 1 && !once)
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
        if (!firstWait || !lastWaitP || ordersItself(k_, b, use, R, LR, *firstWait, n) ||
            ordersTurn(k_, facts_, R, LR, *firstWait, P, LP, *lastWaitP, b))
          continue;
        ctx_.diags.build(DiagId::SafetyTurnsUnordered, firstWait->op->range, name(P), name(R), name(b))
            .note(DiagId::NoteWaitHere, lastWaitP->op->range, name(P), name(b))
            .note(DiagId::NoteBarrierDeclaredHere, k_.resources[b].range, name(b))
            .emit();
      }
    }
  }
};

}  // namespace

void checkStageForms(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  StageChecks(ctx, k, f).checkStageForms();
}
void checkStageSequence(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  StageChecks(ctx, k, f).checkStageSequence();
}
void checkTurnOrder(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  StageChecks(ctx, k, f).checkTurnOrder();
}

}  // namespace cake::passes::safety
