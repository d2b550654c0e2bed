// Data is handed from role to role through barriers (ProgramSafety's
// sub-checks):
//  - checkReadBeforeWait: a role reads a stage of a buffer another role
//    fills only after waiting on the barrier that guards it, for that stage;
//  - checkHandOffs: a hand-off that is not a TMA copy is waited for too;
//  - checkRingReuse: a producer that wraps around its ring waits for the
//    readers to release a stage before overwriting it;
//  - checkMulticastRelease: the wait before a multicast copy hears from
//    every block's consumers;
//  - (checkProxyFences, the fences and syncs between a role's generic
//    stores and its reads: ProxyFences.cpp);
//  - checkWritten: everything read was written first, and two roles
//    writing one view are ordered.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"

namespace cake::passes::safety {

namespace {

class DataFlowChecks : public Checker {
public:
  using Checker::Checker;

  // The barriers guarding each view (guards_).
  void collectGuards() {
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

  // Whether a read `e` of the role's own copies into `v` is covered by its
  // wait `w` in an earlier loop over the same iterations at the same
  // stages (every copy issued, each stage waited for in one loop, read
  // again in later ones): the loops run at most as many iterations as the
  // view has stages (each stage's slot its own), and the role writes `v`
  // (or a view over its bytes) neither inside the wait's loop nor between
  // it and the read, so no refill is in flight or has landed over the data
  // waited for.
  bool prefetchedRead(const RoleEvents &r, const Event &w, const Event &e, const StageRef &read, ResourceId v) const {
    std::optional<int64_t> trips;
    if (!sameStagesInEarlierLoop(w, stageOperand(*w.op), e, read, &trips) || !trips || *trips > k_.resources[v].stages)
      return false;
    const IrStmt *waitLoop = w.loops.back();
    std::vector<ResourceId> views = sharing(v);
    for (const Event &x : r.events) {
      bool inLoop = std::find(x.loops.begin(), x.loops.end(), waitLoop) != x.loops.end();
      if (!inLoop && (x.index <= w.index || x.index >= e.index)) continue;
      for (ResourceId wr : written(x))
        if (std::find(views.begin(), views.end(), wr) != views.end()) return false;
    }
    return true;
  }

  void checkReadBeforeWait() {
    collectGuards();
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        for (int8_t slot : e.op->info().effects.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || !guards_.count(v) || ownWriteBefore(e, v, effectStage(*e.op, slot))) continue;
          StageRef read = effectStage(*e.op, slot);
          std::string stage = key(read);
          for (const auto &[barrier, writer] : guards_[v]) {
            // The role's own copies need its wait as much as another's: a
            // wait it passes first, or (its own copies only: another role
            // may refill a stage once it is released) one in an earlier
            // loop over the same stages (prefetchedRead).
            bool ok = false;
            for (const Event *w : facts_.barrier(barrier).waits)
              if ((covers(k_, *w, e) && (k_.resources[v].stages <= 1 || sameStage(k_, stageOperand(*w->op), read))) ||
                  (writer == r.role && k_.resources[v].stages > 1 && prefetchedRead(r, *w, e, read, v)))
                ok = true;
            if (!ok)
              ctx_.diags.build(DiagId::SafetyReadBeforeWait, e.op->range, name(r.role), stage, name(v), name(barrier))
                  .note(DiagId::NoteBarrierDeclaredHere, k_.resources[barrier].range, name(barrier))
                  .emit();
          }
        }
      }
    checkStagesCarried();
  }

  // A ring the reader reads after every wait on its guard, at the stage it
  // waited for, must be written at every stage the writer signals that
  // guard: a group of copies signalling one stage (same loops, same stage)
  // that leaves the ring out hands over a stale lap's slot (one of two
  // copies deleted across a split running count). Decided only where every
  // wait of the reader is followed, in its iteration, by such a read.
  void checkStagesCarried() {
    std::set<std::pair<const Event *, ResourceId>> reported;
    for (const auto &[v, gs] : guards_) {
      if (k_.resources[v].kind != ResourceKind::View || k_.resources[v].stages <= 1) continue;
      for (const auto &[b, writer] : gs) {
        const BarrierFacts &use = facts_.barrier(b);
        // A reader role that reads v after each of its waits on b.
        const Event *need = nullptr;
        for (const RoleEvents &r : roles_) {
          if (r.role == writer) continue;
          bool all = false;
          const Event *sample = nullptr;
          for (const Event *w : use.waits) {
            if (w->role != r.role) continue;
            const Event *read = nullptr;
            for (const Event &x : r.events) {
              if (x.index <= w->index || x.loops != w->loops || x.conditional || (x.guarded && !w->guarded)) continue;
              for (int8_t slot : x.op->info().effects.reads)
                if (effectResource(*x.op, slot) == v && sameStage(k_, stageOperand(*w->op), effectStage(*x.op, slot)))
                  read = &x;
              if (read) break;
            }
            if (!read) {
              all = false;
              break;
            }
            all = true;
            if (!sample) sample = read;
          }
          if (all) need = sample;
          if (need) break;
        }
        if (!need) continue;
        for (const Event *s : use.signals) {
          if (s->role != writer || s->alternative || s->conditional) continue;
          // (Two stages named in one iteration: checkStageSequence's.)
          bool carries = false, first = true, oneStage = true;
          std::vector<ResourceId> views = sharing(v);
          for (const Event *o : use.signals) {
            if (o->role != writer || o->loops != s->loops) continue;
            if (!sameStage(k_, stageOperand(*o->op), stageOperand(*s->op))) {
              oneStage = false;
              continue;
            }
            if (o->index < s->index) first = false;
            for (ResourceId w : written(*o)) carries |= std::find(views.begin(), views.end(), w) != views.end();
          }
          if (!oneStage) continue;
          if (carries || !first || !reported.insert({s, v}).second) continue;
          ctx_.diags
              .build(DiagId::SafetyStageUnwritten, s->op->range, name(writer), name(b),
                     stageOperand(*s->op).present() ? sourceText(ctx_.sm, stageOperand(*s->op).expr->range) : "0",
                     name(v), name(need->role))
              .note(DiagId::NoteReadHere, need->op->range, name(v))
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
          if (v == kNoResource || ownWriteBefore(e, v, effectStage(*e.op, slot))) continue;
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
              const Event *partial = nullptr, *early = nullptr;
              // The tensor core's write into TMEM completes after the MMA is
              // issued: only a commit's arrival comes after it.
              bool async = trackedGroup(*w.op, ctx_.module.target) != AsyncGroup::None;
              for (const auto &[b, use] : uses_) {
                // A barrier whose first lap passes (credits) hands nothing
                // over on that lap.
                if (use.release) continue;
                bool waited = false;
                for (const Event *x : use.waits) waited |= covers(k_, *x, e);
                if (!waited) continue;
                for (const Event *x : use.signals) {
                  if (x->role != o.role || x->index <= w.index) continue;
                  if (async && x->op->info().effects.signal != Signal::CommitArrive)
                    early = x;
                  else if (vouches(w, *x))
                    ok = true;
                  else
                    partial = x;
                }
              }
              ok = ok || metAfter(w, e);
              if (ok || !reported.insert({&e, v}).second) continue;
              if (early) {
                ResourceId b = effectResource(*early->op, early->op->info().effects.signals);
                ctx_.diags
                    .build(DiagId::SafetyHandOffInFlight, early->op->range, name(o.role), name(v), name(r.role),
                           name(b), w.op->info().name)
                    .note(DiagId::NoteWrittenHere, w.op->range, name(v))
                    .emit();
                continue;
              }
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

  // A named barrier both roles meet at, each from one place in loop nests of
  // the same bounds (their k-th meetings are one): the writer meets there
  // after the write in its iteration, the reader before the read in its
  // own. (barrier.sync orders every participating thread's writes before
  // the meeting with the others' reads after it.)
  bool metAfter(const Event &w, const Event &e) const {
    for (const Resource &nb : k_.resources) {
      if (nb.kind != ResourceKind::NamedBarrier) continue;
      const Event *mw = nullptr, *me = nullptr;
      int nw = 0, ne = 0;
      for (const RoleEvents &r : roles_)
        for (const Event &x : r.events) {
          if (effectResource(*x.op, x.op->info().effects.meets) != nb.id) continue;
          if (x.role == w.role) mw = &x, ++nw;
          if (x.role == e.role) me = &x, ++ne;
        }
      if (nw != 1 || ne != 1 || mw->conditional || me->conditional || mw->guarded || me->guarded ||
          !sameLoopNest(k_, *mw, *me))
        continue;
      bool writeBefore = w.index < mw->index && w.loops.size() >= mw->loops.size() &&
                         std::equal(mw->loops.begin(), mw->loops.end(), w.loops.begin());
      if (writeBefore && covers(k_, *me, e)) return true;
    }
    return false;
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

  // Whether a wait on barrier `b` at stage `a` protects the write of a view
  // of `depth` stages at stage `w`: it waits for the arrival at stage
  // a - credits, which must come after the reads of the slot's previous
  // occupant (stage w - depth), i.e. a - w >= credits - depth; a wait a full
  // lap ahead or more is a hang (checkStageSequence).
  bool protects(const StageRef &a, const StageRef &w, ResourceId b, int64_t depth) const {
    bool ka, kw;
    AffineForm fa = formOf(k_, a, ka), fw = formOf(k_, w, kw);
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
    if (!w.guarded || w.conditional || w.role != e.role || w.index >= e.index) return false;
    // A one-slot buffer (a TMEM accumulator rewritten per tile) whose
    // release wait skips only the first iteration of a loop around the
    // write (`if c > 0: wait(acc_free, stage=c - 1)`): that iteration writes
    // the slot for the first time.
    if (depth <= 1 && !written.present() && !w.loops.empty() && w.loops.size() <= e.loops.size() &&
        std::equal(w.loops.begin(), w.loops.end(), e.loops.begin())) {
      const IrStmt &L = *w.loops.back();
      if (L.step > 0 && L.start.ix != kNoIntExpr && L.stop.ix != kNoIntExpr) {
        auto skipped = IntExprTable::constantDifference(w.first, k_.ints.form(L.start.ix));
        auto toEnd = IntExprTable::constantDifference(w.end, k_.ints.form(L.stop.ix));
        if (skipped == L.step && toEnd && *toEnd >= 0) return true;
      }
    }
    if (w.loops != e.loops) return false;
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

  // Whether the readers' arrivals on `b` can stand for being done with the
  // slot the write after wait `w` reuses: false only when every arrival of
  // a reader on `b` is positively not after its read of that slot's stage
  // (or a later one) in its loop body (a wait on another ring's release barrier before a
  // copy into this ring: the arrival follows the other ring's read, or a
  // read of another stage of this one). Arrivals whose relation to the
  // reads the forms cannot tell count, as before.
  bool releasesAfterReads(ResourceId b, ResourceId v, const Event &w, const StageRef &written) const {
    if (k_.resources[v].stages <= 1) return true;
    bool kw, ka;
    AffineForm fw = formOf(k_, written, kw), fa = formOf(k_, stageOperand(*w.op), ka);
    std::optional<int64_t> lead = kw && ka ? IntExprTable::constantDifference(fw, fa) : std::nullopt;
    if (!lead) return true;
    // The wait at stage a consumes the arrival at a - credits; the write at
    // stage a + lead reuses the slot of stage a + lead - depth, whose read
    // that arrival must follow: read stage - arrival stage = want.
    int64_t credits = facts_.barrier(b).release ? k_.resources[b].count : 0;
    int64_t want = satAdd(satAdd(*lead, -k_.resources[v].stages), credits);
    bool any = false;
    for (const RoleEvents &r : roles_)
      for (const Event &a : r.events) {
        if (effectResource(*a.op, a.op->info().effects.signals) != b || r.role == w.role) continue;
        bool known;
        AffineForm fs = formOf(k_, stageOperand(*a.op), known);
        if (!known) return true;
        bool readBefore = false, mismatchOnly = true;
        for (const Event &x : r.events) {
          if (x.loops.size() < a.loops.size() || !std::equal(a.loops.begin(), a.loops.end(), x.loops.begin())) continue;
          // A read after the arrival in the same loop body ran in the
          // previous iteration too, before it: at its stage less one step
          // of the loop (the release at the top of the next iteration).
          bool carried = x.index >= a.index;
          if (carried && (x.loops != a.loops || a.loops.empty() || a.loops.back()->step <= 0)) continue;
          for (int8_t slot : x.op->info().effects.reads) {
            if (effectResource(*x.op, slot) != v) continue;
            bool kr;
            AffineForm fr = formOf(k_, effectStage(*x.op, slot), kr);
            if (carried) {
              if (!kr) continue;
              const IrStmt &L = *a.loops.back();
              auto [c, rest] = k_.ints.splitLoopVar(fr, L.loopId);
              if (c == 0) continue;
              std::optional<AffineForm> prev = IntExprTable::combine(fr, AffineForm{satMul(c, L.step), {}}, -1);
              if (!prev) continue;
              fr = *prev;
            }
            readBefore = true;
            std::optional<int64_t> d =
                kr && x.loops == a.loops ? IntExprTable::constantDifference(fr, fs) : std::nullopt;
            // Reads run in stage order: an arrival after a later stage's
            // read is after this one too (a stricter wait).
            if (!d || *d >= want) mismatchOnly = false;
          }
        }
        if (readBefore && !mismatchOnly) return true;
        any = true;
      }
    return !any;
  }

  // Whether a write's stages stay in the ring's first lap: stages first
  // through first + n - 1 of a running count over every loop around it (n
  // its constant trip count), with 0 <= first and first + n <= stages. A
  // count that starts a lap on (`j + 4` after a prefetch of 0 to 3) wraps
  // however few its iterations, and so does one that repeats in a loop it
  // does not count.
  bool neverWraps(const Event &e, const StageRef &written, int64_t stages) const {
    auto trips = constantTripCount(e);
    if (!trips || e.guarded) return false;
    if (!written.present()) return *trips <= 1;
    analysis::LinearStage ls = analysis::linearStage(k_, ctx_.sm, written, e);
    if (!ls.ok || !ls.notRunning.empty()) return false;
    std::optional<AffineForm> first;
    if (!ls.loop) {
      if (*trips > 1) return false;
      first = ls.offset;
    } else {
      auto at = std::find(e.loops.begin(), e.loops.end(), ls.loop);
      if (ls.scale != 1 || at != e.loops.begin() || static_cast<size_t>(e.loops.end() - at) != ls.nest ||
          ls.loop->start.ix == kNoIntExpr ||
          std::any_of(at, e.loops.end(), [](const IrStmt *l) { return l->step != 1; }))  // stages skipped
        return false;
      first = ls.at(k_.ints.form(ls.loop->start.ix));
    }
    return first && first->isConstant() && first->constant >= 0 && satAdd(first->constant, *trips) <= stages;
  }

  void checkRingReuse() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        ResourceId v = effectResource(*e.op, fx.writes);
        // Views, and TMEM accumulators a persistent MMA role rewrites per
        // tile; a straight-line write counts when its stage is past the
        // first lap (stage 4 of a ring of 4 after a loop over 0 to 3).
        // (A straight-line copy's own reads are refill-under-read's.)
        bool straight = v != kNoResource && fx.single && e.loops.empty() &&
                        k_.resources[v].kind == ResourceKind::View && checkStraightRefill(r, e, v);
        if (v == kNoResource ||
            (e.loops.empty() &&
             (k_.resources[v].stages <= 1 || neverWraps(e, effectStage(*e.op, kReceiver), k_.resources[v].stages))))
          continue;
        if (k_.resources[v].kind != ResourceKind::View && k_.resources[v].kind != ResourceKind::Tmem) continue;
        const Resource &view = k_.resources[v];
        if (neverWraps(e, effectStage(*e.op, kReceiver), view.stages)) continue;
        // The roles that read this view; the writing role itself where one
        // elected thread writes (a TMA copy) what its warps read apart: the
        // copy may overwrite a slot another warp of the role still reads.
        std::set<ResourceId> readers;
        int64_t selfUnit = 0;  // the threads of the role that read apart from the copy (0: none)
        for (const RoleEvents &o : roles_)
          for (const Event &x : o.events)
            for (int8_t slot : x.op->info().effects.reads)
              if (effectResource(*x.op, slot) == v) {
                if (o.role != r.role)
                  readers.insert(o.role);
                else if (fx.single && !straight && !ownReadOrdered(r, e, x, slot, k_.resources[v].stages))
                  selfUnit = completionUnit(x, roleThreads(k_, r.role));
              }
        if (selfUnit) readers.insert(r.role);
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
          for (const Event *s : use.signals)
            // The role's own copies landing on it release nothing; its
            // arrivals after its reads do.
            if (s->role != r.role || !selfUnit || s->op->info().effects.signal == Signal::Arrive)
              signallers.insert(s->role);
          if (!std::includes(signallers.begin(), signallers.end(), readers.begin(), readers.end())) continue;
          // A wait for a later release implies the earlier ones: the
          // releasing role's stages run in sequence (checkStageSequence).
          for (const Event *w : use.waits)
            if ((covers(k_, *w, e) || coversAfterFirstLap(*w, e, written, view.stages)) &&
                protects(stageOperand(*w->op), written, b, view.stages) && releasesAfterReads(b, v, *w, written))
              released = true;
        }
        if (!released) {
          std::string who;
          for (ResourceId rr : readers)
            if (rr != r.role) who += (who.empty() ? "role '" : "', role '") + name(rr);
          if (!who.empty()) who += "'";
          if (selfUnit)  // its warps read apart from the elected thread that writes
            who += (who.empty() ? "" : " and ") +
                   fmt::format("the other {}s of role '{}'", unitName(selfUnit, roleThreads(k_, r.role)), name(r.role));
          ctx_.diags.build(DiagId::SafetyRingReuse, e.op->range, name(r.role), stageOf(v, written), view.name, who)
              .note(DiagId::NoteDeclaredHere, view.range, view.name)
              .emit();
        }
      }
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
        if (overwrites == true) {
          // Initialised on the first run of a loop that may run zero times,
          // and read after it: then nothing initialised what is read.
          if (const IrStmt *l = skippableAround(*e, v, init.value))
            ctx_.diags
                .build(DiagId::SafetyUnprovenInitialised, e->op->range, name(r.role), name(v),
                       fmt::format("{} of its first '{}' runs inside a loop over '{}' that may run zero times "
                                   "(lm.range({}, {})), after which '{}' is read; declare the count as a tensor "
                                   "dimension (at least 1), bound it with lm.max, or initialise before the loop",
                                   what, e->op->info().name, l->loopVar, boundText(ctx_.sm, l->start),
                                   boundText(ctx_.sm, l->stop), name(v)))
                .note(DiagId::NoteLoopHere, l->range, l->loopVar)
                .emit();
          continue;
        }
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
          if (blockingOnly && use.release && !blocksAfterCredits(k_, facts_.barrier(b), b, earlier.role, later.role))
            continue;
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

private:
  // The outermost loop around `e` that may run zero times while `v` is
  // read somewhere outside it (by any role), or null. A loop the launcher
  // checks before it launches is not one: an init= that is not a constant
  // names the loops whose first iteration it picks (its loop variables, or
  // the innermost loop), and the launcher refuses a launch in which one of
  // them runs no iteration (cake_check_trips, codegen/LauncherRanges.cpp).
  const IrStmt *skippableAround(const Event &e, ResourceId v, const Value &init) const {
    std::set<uint32_t> checked;
    if (!(init.kind == ValueKind::Bool && init.boolIsConst) && !e.loops.empty()) {
      if (init.ix != kNoIntExpr) k_.ints.loopsIn(k_.ints.form(init.ix), checked);
      if (checked.empty()) checked.insert(e.loops.back()->loopId);
    }
    for (const IrStmt *l : e.loops) {
      if (loopRunsAtLeastOnce(k_, *l) || checked.count(l->loopId)) continue;
      // A reader in a loop of the same bounds runs no iteration either (a
      // consumer role's loop over the same tiles).
      auto sameLoop = [&](const IrStmt *x) {
        return x == l || (sameBound(k_, x->start, l->start) && sameBound(k_, x->stop, l->stop));
      };
      for (const RoleEvents &o : roles_)
        for (const Event &x : o.events)
          if (readsResource(x, v) && std::none_of(x.loops.begin(), x.loops.end(), sameLoop)) return l;
    }
    return nullptr;
  }

  std::map<ResourceId, std::set<std::pair<ResourceId, ResourceId>>> guards_;  // view -> {(barrier, writer)}
};

}  // namespace

void checkReadBeforeWait(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DataFlowChecks(ctx, k, f).checkReadBeforeWait();
}
void checkHandOffs(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DataFlowChecks(ctx, k, f).checkHandOffs();
}
void checkRingReuse(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DataFlowChecks(ctx, k, f).checkRingReuse();
}
void checkMulticastRelease(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DataFlowChecks(ctx, k, f).checkMulticastRelease();
}
void checkWritten(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DataFlowChecks(ctx, k, f).checkWritten();
}

}  // namespace cake::passes::safety
