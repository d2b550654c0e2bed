// Views that share bytes through an alias (ProgramSafety's sub-check
// checkAliasRaces): a write through one view and any access through
// another over the same bytes, in different roles, are handed over through
// barriers as writes to one view are; within one role of several
// warpgroups, a role sync orders each warpgroup's MMA reads before a
// generic write over them.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "analysis/Tiling.h"
#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"
#include "target/TargetInfo.h"

namespace cake::passes::safety {

namespace {

class AliasChecks : public Checker {
public:
  using Checker::Checker;

  // The ring slots (stage % stages) a use of a staged view can name, from
  // its stage form over its loops' ranges; every slot when not known.
  std::set<int64_t> slotsOf(const Event &e, const StageRef &stage, const Resource &v,
                            std::optional<std::pair<uint32_t, int64_t>> fixed = std::nullopt) const {
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
      if (fixed && fixed->first == id) {
        first = fixed->second;
        count = 1;
      } else if (l.step == 1 && l.start.constInt && l.stop.constInt && !(e.guarded && *it == e.loops.back())) {
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
  std::vector<std::pair<int64_t, int64_t>> bytesOf(const Event &e, ResourceId id,
                                                   std::optional<std::pair<uint32_t, int64_t>> fixed = {}) const {
    const Resource &v = k_.resources[id];
    std::vector<std::pair<int64_t, int64_t>> out;
    StageRef stage = stageFor(e, id);
    if (!stage.present() || v.stages <= 1) {
      out.emplace_back(v.offset, satAdd(v.offset, v.totalBytes));
      return out;
    }
    for (int64_t slot : slotsOf(e, stage, v, fixed)) out.push_back(slotBytes(v, slot));
    return out;
  }
  static bool overlap(const std::vector<std::pair<int64_t, int64_t>> &a,
                      const std::vector<std::pair<int64_t, int64_t>> &b) {
    for (const auto &x : a)
      for (const auto &y : b)
        if (std::max(x.first, y.first) < std::min(x.second, y.second)) return true;
    return false;
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
            // Within a role of several warpgroups the same view counts too:
            // a warpgroup's write may meet what another's MMA still reads.
            checkAliasWithinRole(ra, w, p, q);
            if (q == p) continue;
            for (const RoleEvents &rb : roles_) {
              if (rb.role == ra.role) continue;
              for (const Event &x : rb.events) {
                std::vector<ResourceId> xw = written(x);
                bool writes = std::find(xw.begin(), xw.end(), q) != xw.end();
                if (!writes && !readsResource(x, q)) continue;
                if (!overlap(bytesOf(w, p), bytesOf(x, q))) continue;
                bool staged = stageFor(w, p).present() && stageFor(x, q).present();
                if (aliasOrdered(ra, w, p, rb, x, q, staged) ||
                    !reported.insert({std::min(&w, &x), std::max(&w, &x)}).second)
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
                    .note(writes ? DiagIdWithArgs<1>(DiagId::NoteWrittenHere)
                          : x.op->info().effects.group == AsyncGroup::Bulk
                              ? DiagIdWithArgs<1>(DiagId::NoteAsyncReadHere)
                              : DiagIdWithArgs<1>(DiagId::NoteReadHere),
                          x.op->range, name(q))
                    .emit();
              }
            }
          }
        }
  }
  // One role of several warpgroups: each waits for its own MMA only, so a
  // generic write through an alias of bytes its MMA read must come after a
  // role sync that follows the wait (ThunderKittens syncs the consumers
  // before writing the finish block over the ring). With mma.sync the unit
  // is the warp: each warp's MMA reads its own tiles, the B operand's
  // shared by the others, and is over for that warp only.
  void checkAliasWithinRole(const RoleEvents &r, const Event &w, ResourceId p, ResourceId q) {
    MmaPath path = targetInfo(ctx_.module.target).mma;
    bool perWarp = path == MmaPath::MmaSync;
    if (w.op->info().effects.proxy == Proxy::Async) return;
    // tcgen05 work reads until the barrier its commit signals completes, in
    // a role of any size: checked below whatever the role's threads.
    bool several = roleThreads(k_, r.role) > (perWarp ? 32 : 128);
    if (!several && path != MmaPath::Tcgen05) return;
    std::vector<const Event *> syncs;
    for (const Event &sy : r.events)
      if (sy.op->info().effects.syncsRole) syncs.push_back(&sy);
    for (const Event &x : r.events) {
      const OpEffects &xf = x.op->info().effects;
      if (&x == &w || xf.group != AsyncGroup::Mma || !readsResource(x, q)) continue;
      if (!overlap(bytesOf(w, p), bytesOf(x, q))) continue;
      // Paths from the read to the write: later in program order, or in the
      // next iteration of a loop around both.
      if (!pathAvoiding(x, w, {})) continue;
      if (path == MmaPath::Tcgen05) {
        if (tcgen05ReadOver(r, x, w)) continue;
        ctx_.diags
            .build(DiagId::SafetyAliasRace, w.op->range, name(r.role), fmt::format("'{}'", name(p)), name(r.role),
                   "reading, through its tcgen05 MMA,", name(q),
                   "the MMA reads shared memory until the barrier its lm.commit signals completes; an lm.wait on "
                   "that barrier before the write makes the read come first")
            .note(DiagId::NoteReadHere, x.op->range, name(q))
            .emit();
        return;
      }
      if (!several) continue;
      // Where the read is over: at the MMA itself (mma.sync), or at a wait
      // for all of its family's groups, one of which must lie on every path
      // from the MMA to the write (the next iteration's wait at the top of
      // the loop counts). A wait retires only committed groups: it counts
      // where a commit of the family lies on every path from the MMA to it.
      std::vector<const Event *> ends, commits;
      if (trackedGroup(*x.op, ctx_.module.target) == AsyncGroup::None) {
        ends.push_back(&x);
      } else {
        for (const Event &e : r.events)
          if (e.op->info().effects.closesGroup && e.op->info().effects.group == xf.group) commits.push_back(&e);
        for (const Event &e : r.events) {
          const OpEffects &ef = e.op->info().effects;
          if (ef.waitsGroup && ef.group == xf.group && e.op->pendingGroups() == 0 && !pathAvoiding(x, e, commits))
            ends.push_back(&e);
        }
      }
      bool over = !ends.empty() && (ends.front() == &x || !pathAvoiding(x, w, ends));
      int8_t rows = x.op->info().effects.warpgroupRows;
      if (over && rows != kNone && effectResource(*x.op, rows) == q &&
          effectResource(*w.op, w.op->info().effects.writes) == p &&
          warpgroupRowsMismatch(targetInfo(ctx_.module.target).mma, k_, *x.op, rows, *w.op).empty())
        continue;
      // And a role sync after it on every path to the write: after each end
      // the MMA reaches.
      bool synced = over;
      for (const Event *e : ends)
        if (synced && (e == &x || pathAvoiding(x, *e, {})) && pathAvoiding(*e, w, syncs)) synced = false;
      if (synced) continue;
      ctx_.diags
          .build(DiagId::SafetyAliasRace, w.op->range, name(r.role), fmt::format("'{}'", name(p)), name(r.role),
                 perWarp ? "reading, in another of its warps," : "reading, in another of its warpgroups,", name(q),
                 perWarp ? "each warp's mma.sync reads its own tiles and is over for that warp only; an "
                           "lm.role_sync() after the MMA and before the write makes every warp's reads come first"
                         : "each warpgroup waits for its own MMA only; an lm.role_sync() after that wait and before "
                           "the write makes every warpgroup's wait come first")
          .note(DiagId::NoteReadHere, x.op->range, name(q))
          .emit();
      return;
    }
  }
  // Whether, on every path from the tcgen05 MMA `x` to the write `w`, the
  // role waits on a barrier that a commit of its signals after `x` (each
  // thread waits itself: no role sync is needed after it).
  bool tcgen05ReadOver(const RoleEvents &r, const Event &x, const Event &w) const {
    std::vector<const Event *> ends;
    for (const Event &wt : r.events) {
      ResourceId b = effectResource(*wt.op, wt.op->info().effects.waits);
      if (b == kNoResource) continue;
      std::vector<const Event *> commits;
      for (const Event &c : r.events)
        if (c.op->info().effects.signal == Signal::CommitArrive &&
            effectResource(*c.op, c.op->info().effects.signals) == b)
          commits.push_back(&c);
      if (!commits.empty() && !pathAvoiding(x, wt, commits)) ends.push_back(&wt);
    }
    return !ends.empty() && !pathAvoiding(x, w, ends);
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
  // A wait guarded to a sub-range of its loop's iterations (ThunderKittens'
  // `if k == 3: wait(fin)`) orders `later`, in the same loops, on the
  // iterations whose bytes meet `other`'s: each is the wait's first
  // iteration (the wait comes first in the body) or a later one.
  bool guardCoversOverlap(const Event &wt, const Event &later, ResourceId view,
                          const std::vector<std::pair<int64_t, int64_t>> &other) const {
    if (!wt.guarded || wt.conditional || later.guarded || later.conditional || wt.role != later.role ||
        wt.loops != later.loops || wt.loops.empty() || !wt.first.isConstant())
      return false;
    const IrStmt &L = *later.loops.back();
    if (L.step != 1 || !L.start.constInt || !L.stop.constInt || *L.stop.constInt - *L.start.constInt > 4096)
      return false;
    int64_t first = wt.first.constant;
    for (int64_t i = *L.start.constInt; i < *L.stop.constInt; ++i) {
      if (!overlap(bytesOf(later, view, std::make_pair(L.loopId, i)), other)) continue;
      if (i < first || (i == first && wt.index > later.index)) return false;
    }
    return true;
  }

  bool aliasOrdered(const RoleEvents &ra, const Event &a, ResourceId pa, const RoleEvents &rb, const Event &b,
                    ResourceId pb, bool staged) const {
    // `later` in its role waits for a barrier that `earlier`'s role signals
    // once its access is over: 1 when that wait precedes `later` in its
    // loops, 2 when it is a loop of waits run before `later`, which consume
    // the phases of all earlier runs.
    // The hand-off may pass through other roles (a producer, then the MMA
    // role, then an epilogue): from the earlier access, a signal after it
    // reaches a wait of another role, whose later signals reach further, up
    // to four hops.
    auto after = [&](const Event &later, const RoleEvents &er, const Event &earlier, bool blockingOnly) {
      std::optional<size_t> end = accessEnd(k_, er, earlier, ctx_.module.target);
      int how = 0;
      if (!end) return how;
      // A first-hop arrival by fewer threads than the units whose accesses
      // it hands over (one thread for the role after each warp's mma.sync)
      // speaks only for its own unit, unless a role sync orders them all
      // before it (as checkPartialRelease asks of release barriers).
      int64_t all = roleThreads(k_, er.role), unit = completionUnit(earlier, all);
      // So is a TMA copy's transaction arrival or a commit, by one elected
      // thread. Every such signal of the role on a barrier after the access
      // must be one that speaks for all (the waiter's phase may be the one
      // an early, partial arrival completes: stages are not told apart).
      auto scoped = [&](const Event &sig) {
        if (sig.threads <= 0) return true;
        return all / sig.threads <= unit || all <= unit || roleSyncBetween(*end, sig);
      };
      // `from` signals count when they come after `afterIndex` in its role
      // (or are `from` itself, or the commit ending the access).
      std::function<void(const Event &, size_t, int)> reach = [&](const Event &from, size_t afterIndex, int hops) {
        for (const auto &[bar, use] : uses_) {
          if (blockingOnly && use.release) continue;
          // A release barrier whose first laps pass on credit lets the later
          // side run that many hand-offs ahead: for a whole view touched
          // once a round it orders only a lag of one.
          if (use.release && k_.resources[bar].count > 1 && !staged) continue;
          bool signalsAfter = false, own = false, afterEnd = false, allScoped = true;
          for (const Event *x : use.signals) {
            if (x->role != from.role) continue;
            if (hops > 0) {
              signalsAfter |= x->index > afterIndex && (covers(k_, from, *x) || runsBefore(from, *x));
            } else if (x == &from || (x->index == afterIndex && x->op->info().effects.signal == Signal::CommitArrive)) {
              own = true;  // the access's own completion (a copy's arrival, the commit ending it)
            } else if (x->index > afterIndex) {
              afterEnd = true;
              allScoped = allScoped && scoped(*x);
            }
          }
          if (hops == 0) signalsAfter = own || (afterEnd && allScoped);
          if (!signalsAfter) continue;
          for (const Event *wt : use.waits) {
            if (wt->role == later.role) {
              bool guardedCover = &later == &a ? guardCoversOverlap(*wt, a, pa, bytesOf(b, pb))
                                               : guardCoversOverlap(*wt, b, pb, bytesOf(a, pa));
              how = std::max(how, runsBefore(*wt, later) ? 2 : covers(k_, *wt, later) || guardedCover ? 1 : 0);
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
};

}  // namespace

void checkAliasRaces(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  AliasChecks(ctx, k, f).checkAliasRaces();
}

}  // namespace cake::passes::safety
