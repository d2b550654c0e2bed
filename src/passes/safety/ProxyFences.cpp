// Proxy fences within a role (ProgramSafety's sub-check checkProxyFences,
// which also runs HandOffFences.cpp across roles and FragmentElements.cpp
// for accesses through register fragments): each generic-proxy store of a
// view is paired with every later read of it, or of a view sharing its
// bytes, by the same role, along the paths between them:
//  - an async-proxy read (TMA store, MMA operand) needs a fence on every
//    path (missing-proxy-fence), after the wait where a cp_async copy's
//    writes land;
//  - one by an elected thread also a role sync after that fence
//    (missing-role-sync);
//  - a chunked generic read, which takes chunks other threads wrote, a role
//    sync (cross-thread-read);
//  - an MMA of a role of several warps a role sync, unless each warp stored
//    the rows its own part reads (warpgroup-read).
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

#include "analysis/Tiling.h"
#include "passes/safety/Safety.h"
#include "target/TargetInfo.h"

namespace cake::passes::safety {

namespace {

class ProxyFenceChecks : public Checker {
public:
  using Checker::Checker;

  // Generic stores of a view, then reads of it (or of a view sharing its
  // bytes) by the same role, each store paired with every read along the
  // paths between them (onEveryPath): an async-proxy read needs a fence on
  // every path (missing-proxy-fence); one by an elected thread also a role
  // sync after that fence (missing-role-sync: a sync publishes only writes
  // already fenced); a chunked generic read, which takes chunks other
  // threads wrote, a role sync (cross-thread-read). An MMA's reads of other
  // warps' stores: checkWarpgroupReads.
  void checkProxyFences() {
    for (const RoleEvents &r : roles_) {
      std::vector<const Event *> stores, fences, syncs;
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (fx.fence) fences.push_back(&e);
        if (fx.syncsRole) syncs.push_back(&e);
        if (fx.proxy != Proxy::Generic) continue;
        ResourceId w = effectResource(*e.op, fx.writes);
        if (w != kNoResource && k_.resources[w].kind == ResourceKind::View) stores.push_back(&e);
      }
      bool chunkedRole = roleThreads(k_, r.role) > 1;
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        bool async = readsThroughAsyncProxy(*e.op, ctx_.module.target),
             chunked = fx.chunked && fx.proxy == Proxy::Generic && chunkedRole;
        if (!async && !chunked) continue;
        for (int8_t slot : fx.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || k_.resources[v].kind != ResourceKind::View) continue;
          std::vector<ResourceId> same = sharing(v);
          for (const Event *w : stores) {
            if (w->op == e.op) continue;
            ResourceId wv = effectResource(*w->op, w->op->info().effects.writes);
            if (std::find(same.begin(), same.end(), wv) == same.end()) continue;
            if (chunked) {
              if (onEveryPath(*w, e, syncs)) continue;
              ctx_.diags.build(DiagId::SafetyCrossThreadRead, e.op->range, name(r.role), name(v), e.op->info().name)
                  .note(DiagId::NoteWrittenHere, w->op->range, name(wv))
                  .emit();
              break;
            }
            // A copy whose writes land at its barrier (cp_async) is fenced
            // only by a fence after a wait on that barrier.
            std::vector<const Event *> landed, waits;
            const Event *landing = nullptr;  // the first wait on its barrier after it
            const OpEffects &wf = w->op->info().effects;
            bool lands = copyWaits(*w, r, waits);
            if (lands) {
              for (const Event *x : waits)
                if (!landing && x->index > w->index) landing = x;
              for (const Event *f : fences)
                if (onEveryPath(*w, *f, waits)) landed.push_back(f);
            }
            // A copy of another stage than the one read in the same
            // iteration (the next stage's, issued after this stage's wait):
            // its bytes reach the read only around the loop, where the read's
            // own stage's wait and a fence after it come first.
            std::vector<const Event *> waitsAtRead;
            const IrStmt *apart = lands ? otherStageCopy(*w, wv, e, slot, v, waits, waitsAtRead) : nullptr;
            if (apart ? !everyPathFromStart(*apart, e, after(*apart, fences, waitsAtRead))
                      : !onEveryPath(*w, e, lands ? landed : fences)) {
              auto d = ctx_.diags.build(DiagId::SafetyMissingProxyFence, e.op->range, name(r.role), name(v),
                                        e.op->info().name);
              d.note(DiagId::NoteWrittenHere, w->op->range, name(wv));
              // The copy's writes land at this wait: the fence goes after it.
              if (landing)
                d.note(DiagId::NoteWaitHere, landing->op->range, name(r.role),
                       name(w->op->operandAt(wf.signals).value.resource));
              d.emit();
              unfencedReads_.insert({&e, v});
              break;
            }
            if (!fx.single) continue;
            std::vector<const Event *> published;  // syncs after a fence after the store
            for (const Event *sy : syncs)
              if (onEveryPath(*w, *sy, lands ? landed : fences)) published.push_back(sy);
            if (onEveryPath(*w, e, published)) continue;
            ctx_.diags.build(DiagId::SafetyMissingRoleSync, e.op->range, name(r.role), name(v), e.op->info().name)
                .note(DiagId::NoteWrittenHere, w->op->range, name(wv))
                .emit();
            break;
          }
        }
      }
    }
  }

  // An MMA of a role of several warps reads a view that the role's generic
  // stores wrote (the view or one sharing its bytes) with no role sync on
  // every path from the store to it: a wgmma, like each warp's mma.sync,
  // orders no other warp's stores before its reads. Unless each warp
  // stored the rows its own part reads (warpgroupRowsMismatch). Every store
  // is paired with every read, so a store masked by a later one (another
  // stage, another branch) still counts, and a store after the read in a
  // loop around both reaches it in the next iteration.
  void checkWarpgroupReads() {
    MmaPath path = targetInfo(ctx_.module.target).mma;
    for (const RoleEvents &r : roles_) {
      if (roleThreads(k_, r.role) <= 32) continue;
      std::vector<const Event *> stores, syncs, fences, waits;
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (fx.syncsRole) syncs.push_back(&e);
        if (fx.fence) fences.push_back(&e);
        if (fx.proxy != Proxy::Generic) continue;
        ResourceId w = effectResource(*e.op, fx.writes);
        if (w != kNoResource && k_.resources[w].kind == ResourceKind::View) stores.push_back(&e);
      }
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (fx.proxy != Proxy::Async || fx.group != AsyncGroup::Mma) continue;
        for (int8_t slot : fx.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || k_.resources[v].kind != ResourceKind::View || unfencedReads_.count({&e, v})) continue;
          std::vector<ResourceId> same = sharing(v);
          for (const Event *w : stores) {
            ResourceId wv = effectResource(*w->op, w->op->info().effects.writes);
            if (std::find(same.begin(), same.end(), wv) == same.end()) continue;
            // A cp_async copy: every copying thread arrives on its barrier
            // once its chunks land, so a thread's wait on it orders all of
            // them before the thread's own reads; mma.sync's reads are that
            // thread's (generic proxy), a wgmma's are not (a sync after the
            // fence). A copy of another stage than the one read in the same
            // iteration reaches the read only in a later pass through the
            // loop, where the read's own stage's wait counts (as in
            // checkProxyFences).
            bool copy = copyWaits(*w, r, waits);
            bool byWait = copy && !readsThroughAsyncProxy(*e.op, ctx_.module.target);
            std::vector<const Event *> waitsAtRead;
            const IrStmt *apart = copy ? otherStageCopy(*w, wv, e, slot, v, waits, waitsAtRead) : nullptr;
            bool ordered;
            if (apart) {
              ordered = everyPathFromStart(
                  *apart, e, byWait ? waitsAtRead : after(*apart, syncs, after(*apart, fences, waitsAtRead)));
            } else {
              std::vector<const Event *> cut = syncs;
              if (byWait) cut.insert(cut.end(), waits.begin(), waits.end());
              ordered = onEveryPath(*w, e, cut);
            }
            if (ordered) continue;
            std::string why = warpgroupRowsMismatch(path, k_, *e.op, slot, *w->op);
            if (why.empty()) continue;
            bool wgmma = path == MmaPath::Wgmma;
            ctx_.diags
                .build(DiagId::SafetyWarpgroupRead, e.op->range, wgmma ? "warpgroup" : "warp", name(r.role),
                       !wgmma                                                                ? "parts"
                       : slot == fx.warpgroupRows && !e.op->operandAt(slot).value.transposed ? "its own rows"
                                                                                             : "all",
                       name(v), e.op->info().name, why,
                       wgmma ? "after the fence" : "between the stores and the MMA (mma.sync needs no fence)")
                .note(DiagId::NoteWrittenHere, w->op->range, name(wv))
                .emit();
            break;
          }
        }
      }
    }
  }

  // The role's waits on the barrier a cp_async copy `w` signals (into
  // `waits`); false for another store.
  bool copyWaits(const Event &w, const RoleEvents &r, std::vector<const Event *> &waits) const {
    waits.clear();
    const OpEffects &wf = w.op->info().effects;
    if (wf.signal != Signal::CopyArrive || wf.signals == kNone) return false;
    ResourceId bar = w.op->operandAt(wf.signals).value.resource;
    for (const Event &x : r.events)
      if (x.op->info().effects.waits != kNone && x.op->operandAt(x.op->info().effects.waits).value.resource == bar)
        waits.push_back(&x);
    return true;
  }

  // For a cp_async copy `w` (into `wv`) and a read `e` of view `v` (effect
  // slot `slot`) whose stages differ in one iteration of a loop around
  // both (stagesApartInIteration): that loop, with `atRead` set to the
  // copy's barrier's `waits` at the stage the read names. Null otherwise.
  const IrStmt *otherStageCopy(const Event &w, ResourceId wv, const Event &e, int8_t slot, ResourceId v,
                               const std::vector<const Event *> &waits, std::vector<const Event *> &atRead) const {
    if (!sameSlots(wv, v)) return nullptr;
    StageRef se = effectStage(*e.op, slot);
    const IrStmt *loop =
        stagesApartInIteration(w, effectStage(*w.op, w.op->info().effects.writes), e, se, k_.resources[v].stages);
    atRead.clear();
    for (const Event *x : waits)
      if (sameStage(k_, stageOperand(*x->op), se)) atRead.push_back(x);
    return loop;
  }

  // The events of `of` in `loop` that every path from the start of its
  // body passes one of `cut` before.
  std::vector<const Event *> after(const IrStmt &loop, const std::vector<const Event *> &of,
                                   const std::vector<const Event *> &cut) const {
    std::vector<const Event *> out;
    for (const Event *x : of)
      if (std::count(x->loops.begin(), x->loops.end(), &loop) && everyPathFromStart(loop, *x, cut)) out.push_back(x);
    return out;
  }

  // Whether one of `syncs` (role syncs, fences) runs on every path from the
  // store `w` to the read `e` through the role's body (pathAvoiding).
  bool onEveryPath(const Event &w, const Event &e, const std::vector<const Event *> &syncs) const {
    return !pathAvoiding(w, e, syncs);
  }

private:
  std::set<std::pair<const Event *, ResourceId>> unfencedReads_;  // reported by missing-proxy-fence
};

}  // namespace

void checkProxyFences(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  checkHandOffFences(ctx, k, f);
  ProxyFenceChecks c(ctx, k, f);
  c.checkProxyFences();
  c.checkWarpgroupReads();
  checkFragmentElements(ctx, k, f);
}

}  // namespace cake::passes::safety
