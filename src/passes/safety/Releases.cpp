// Releases (ProgramSafety's sub-checks; which writes a barrier releases is
// analysis/Releases'):
//  - checkPartialRelease: a release arrive comes after every thread's reads
//    of what it releases (a role sync orders them), not only its own unit's;
//  - checkReadAfterRelease: no read of a stage follows its release in the
//    same iteration.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"

namespace cake::passes::safety {

namespace {

class ReleaseChecks : public Checker {
public:
  using Checker::Checker;

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
        auto rel = facts_.releases.views.find(b);
        if (b == kNoResource || rel == facts_.releases.views.end() || a.threads <= 0) continue;
        int64_t span = all / a.threads;  // threads per arrival
        for (const Event &e : r.events) {
          // Reads before it in its loop nest, in enclosing code, or in loops
          // nested inside its loop.
          size_t common = std::min(e.loops.size(), a.loops.size());
          if (e.index >= a.index || !std::equal(e.loops.begin(), e.loops.begin() + common, a.loops.begin())) continue;
          ResourceId read = kNoResource;
          for (int8_t slot : e.op->info().effects.reads)
            if (ResourceId v = effectResource(*e.op, slot);
                read == kNoResource && v != kNoResource && releasesTo(k_, facts_, b, v, r.role))
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

  // A read of a stage after the role released it in the same iteration:
  // the arrival frees the slot for the producer's next write into it (the
  // write at the released stage plus the ring's depth), which may land
  // while the read runs. Reads of the next lap's data (another stage form)
  // are not this. A commit releases too: its arrival covers only the
  // tensor-core work issued before it.
  void checkReadAfterRelease() {
    for (const RoleEvents &r : roles_)
      for (const Event &a : r.events) {
        const OpEffects &fx = a.op->info().effects;
        if (fx.signal != Signal::Arrive && fx.signal != Signal::CommitArrive) continue;
        ResourceId b = effectResource(*a.op, fx.signals);
        auto rel = facts_.releases.views.find(b);
        if (b == kNoResource || rel == facts_.releases.views.end()) continue;
        bool ka;
        AffineForm fa = formOf(k_, stageOperand(*a.op), ka);
        if (!ka) continue;
        std::set<ResourceId> reported;
        for (const Event &e : r.events) {
          // Reads after it in its iteration, or in loops nested after it
          // (a constant stage read again in a later loop).
          if (e.index <= a.index || e.loops.size() < a.loops.size() ||
              !std::equal(a.loops.begin(), a.loops.end(), e.loops.begin()))
            continue;
          for (int8_t slot : e.op->info().effects.reads) {
            ResourceId v = effectResource(*e.op, slot);
            if (v == kNoResource || !releasesTo(k_, facts_, b, v, r.role) || reported.count(v)) continue;
            if (k_.resources[v].stages <= 1) {
              // One slot (a staging view, a TMEM accumulator): a read after
              // its release reads what the next write may replace, unless a
              // wait between them brought it back.
              if (waitBetween(r, a, e, v)) continue;
            } else {
              std::optional<int64_t> shift = freedShift(k_, facts_, b, v);
              bool ke;
              AffineForm fe = formOf(k_, effectStage(*e.op, slot), ke);
              std::optional<int64_t> d = ke ? IntExprTable::constantDifference(fa, fe) : std::nullopt;
              // released stage + shift is the write that reuses the slot
              // read at stage fe: fe + depth.
              if (!shift || !d || satAdd(*d, *shift) != k_.resources[v].stages) continue;
            }
            reported.insert(v);
            ctx_.diags
                .build(DiagId::SafetyReadAfterRelease, e.op->range, name(r.role), stageOf(v, effectStage(*e.op, slot)),
                       name(v), a.op->info().name, name(b),
                       fx.signal == Signal::CommitArrive
                           ? std::string("; a commit's arrival covers only the work issued before it: commit after it")
                           : std::string())
                .note(DiagId::NoteReleasedHere, a.op->range, name(v))
                .emit();
          }
        }
      }
  }

private:
  // Whether role `r` waits between events `a` and `e` for the slot `v` to
  // be written again, on a barrier that hands `v` over:
  //  - one a copy into `v` completes on (a wait on another ring's barrier
  //    does not bring `v` back: FlashAttention-3's Q, released too early,
  //    is rewritten under the reads that follow);
  //  - for generic stores, one their role arrives on after a store into
  //    `v` and that `r` waited on before the release too (the hand-over it
  //    took the released data by). A wait on another barrier (a bias ring's)
  //    does not bring `v` back, nor does one on a barrier the writer signals
  //    in the same iteration as the write `r` just released, which `r`
  //    never took `v` by.
  // A wait on a phase the role already waited for, or on an earlier one,
  // returns at once and brings nothing back: the wait counts only where its
  // stage is proven above every earlier wait's on that barrier, over the
  // iterations of the loops around both (leastDifference).
  bool waitBetween(const RoleEvents &r, const Event &a, const Event &e, ResourceId v) const {
    std::set<ResourceId> landing;
    for (const RoleEvents &w : roles_)
      for (const Event &x : w.events) {
        const OpEffects &fx = x.op->info().effects;
        if (effectResource(*x.op, fx.writes) != v) continue;
        if (ResourceId c = effectResource(*x.op, fx.signals); c != kNoResource) {
          landing.insert(c);
          continue;
        }
        for (const Event &y : w.events)
          if (y.index > x.index && y.op->info().effects.signal != Signal::None)
            if (ResourceId c = effectResource(*y.op, y.op->info().effects.signals);
                c != kNoResource && std::any_of(r.events.begin(), r.events.end(), [&](const Event &z) {
                  return z.index < a.index && effectResource(*z.op, z.op->info().effects.waits) == c;
                }))
              landing.insert(c);
      }
    return std::any_of(r.events.begin(), r.events.end(), [&](const Event &w) {
      if (w.index <= a.index || w.index >= e.index) return false;
      ResourceId b = effectResource(*w.op, w.op->info().effects.waits);
      if (b == kNoResource || !landing.count(b)) return false;
      bool kw;
      AffineForm fw = formOf(k_, stageOperand(*w.op), kw);
      for (const Event &x : r.events) {
        if (x.index >= w.index || effectResource(*x.op, x.op->info().effects.waits) != b) continue;
        bool kx;
        AffineForm fx = formOf(k_, stageOperand(*x.op), kx);
        if (!kw || !kx) continue;
        std::optional<int64_t> d = leastDifference(fw, fx, w, x);
        if (!d || *d <= 0) return false;
      }
      return true;
    });
  }

  // The least value of stage `fw` (of wait `w`) minus stage `fx` (of wait
  // `x`) over the iterations of the loops around them: each loop
  // variable's term at its loop's first value (a positive coefficient) or
  // last (a negative one, step 1); nullopt where that is not a constant.
  std::optional<int64_t> leastDifference(const AffineForm &fw, const AffineForm &fx, const Event &w,
                                         const Event &x) const {
    std::optional<AffineForm> diff = IntExprTable::combine(fw, fx, -1);
    if (!diff) return std::nullopt;
    std::vector<const IrStmt *> loops = w.loops;
    loops.insert(loops.end(), x.loops.begin(), x.loops.end());
    for (const IrStmt *l : loops) {
      auto [coef, rest] = k_.ints.splitLoopVar(*diff, l->loopId);
      if (coef == 0) continue;
      std::optional<AffineForm> bound;
      if (coef > 0 && l->step > 0 && l->start.ix != kNoIntExpr)
        bound = k_.ints.form(l->start.ix);
      else if (coef < 0 && l->step == 1 && l->stop.ix != kNoIntExpr)
        bound = IntExprTable::combine(k_.ints.form(l->stop.ix), AffineForm{1, {}}, -1);
      if (!bound) return std::nullopt;
      diff = IntExprTable::combine(rest, *bound, coef);
      if (!diff) return std::nullopt;
    }
    if (!diff->isConstant()) return std::nullopt;
    return diff->constant;
  }

  std::set<std::pair<const Operation *, ResourceId>> reportedPartial_;
};

}  // namespace

void checkPartialRelease(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  ReleaseChecks(ctx, k, f).checkPartialRelease();
}
void checkReadAfterRelease(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  ReleaseChecks(ctx, k, f).checkReadAfterRelease();
}

}  // namespace cake::passes::safety
