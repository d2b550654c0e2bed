// Fragment accesses within a role (ProgramSafety's sub-check, run with
// checkProxyFences): two generic accesses of one view, or of two views that
// share bytes, through register fragments give each element to the same
// thread, or a role sync that runs every time both do lies between them.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/Tiling.h"
#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"
#include "target/TargetInfo.h"

namespace cake::passes::safety {

namespace {

class FragmentElementChecks : public Checker {
public:
  using Checker::Checker;

  // A copy into a view spread over the role's threads in chunks that
  // completes on a barrier (cp.async): each thread writes chunks other
  // threads' fragments hold. Its wait orders what it writes before later
  // reads (checkReadBeforeWait); what earlier fragment accesses of the
  // role read or wrote there must be done in every thread before it, so a
  // role sync lies between them (a ring the role refills itself).
  static bool refill(const Event &e) {
    const OpEffects &fx = e.op->info().effects;
    return fx.chunked && fx.writes == kReceiver && effectResource(*e.op, fx.signals) != kNoResource;
  }

  // Whether two accesses in `loop` name, in every iteration, one slot of
  // their ring that no other iteration names: both stages the loop's
  // variable times the same c plus the same offset (linearStage), over a
  // constant trip count T with |c| (T - 1) below the ring's depth. Then
  // nothing is carried from one iteration to the next.
  bool slotPerIteration(const IrStmt &loop, const Event &p, const StageRef &sp, const Event &q,
                        const StageRef &sq) const {
    ResourceId v = p.op->receiver;
    if (v == kNoResource || loop.step != 1 || loop.start.ix == kNoIntExpr || loop.stop.ix == kNoIntExpr ||
        !sp.present() || !sq.present())
      return false;
    analysis::LinearStage lp = analysis::linearStage(k_, ctx_.sm, sp, p),
                          lq = analysis::linearStage(k_, ctx_.sm, sq, q);
    if (!lp.ok || !lq.ok || lp.loop != &loop || lq.loop != &loop || lp.nest != 1 || lq.nest != 1 || lp.outerScaled ||
        lq.outerScaled || lp.outerScale != lq.outerScale || lp.outerScale == 0 || lp.offset != lq.offset)
      return false;
    std::optional<int64_t> trips =
        IntExprTable::constantDifference(k_.ints.form(loop.stop.ix), k_.ints.form(loop.start.ix));
    int64_t depth = std::max<int64_t>(1, k_.resources[v].stages);
    return trips && std::abs(lp.outerScale) * std::max<int64_t>(0, *trips - 1) < depth;
  }

  // Within a role: two generic accesses of one view through register
  // fragments (a fragment's store, a view's load; at least one a store) with
  // no role sync between them, in program order or from one iteration of
  // their common loop to the next, must give each element to the same
  // thread (analysis::sameThreadElements): a row vector stored by one lane
  // of four and loaded by all four, or a tile loaded after a store of a
  // differently shaped fragment, reads what other threads wrote. A refill
  // after fragment accesses of its slot counts as a store that matches no
  // fragment (only that direction: its wait orders the other).
  void checkFragmentElements() {
    MmaPath path = targetInfo(ctx_.module.target).mma;
    for (const RoleEvents &r : roles_) {
      if (roleThreads(k_, r.role) <= 1) continue;
      std::vector<const Event *> acc, syncs;
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (fx.syncsRole) syncs.push_back(&e);
        if (fx.threadElements != kNone || refill(e)) acc.push_back(&e);
      }
      // The memory accessed: the receiver view, or the global tensor of a
      // copy between a tensor and registers (its tile at its coordinates).
      auto view = [](const Event &e) {
        if (e.op->receiver != kNoResource) return e.op->receiver;
        const OpInfo &info = e.op->info();
        for (size_t i = 0; i < info.params.size(); ++i)
          if ((info.params[i].kind == ParamKind::GlobalTensorP || info.params[i].kind == ParamKind::TensorP) &&
              e.op->operands[i].present)
            return e.op->operands[i].value.resource;
        return kNoResource;
      };
      // A store reads its fragment (and writes memory); a load yields it.
      auto stores = [](const Event &e) { return e.op->info().effects.threadElements != kResult; };
      auto sameCoords = [&](const Event &a, const Event &b) {
        const Operand *ca = copyCoords(*a.op), *cb = copyCoords(*b.op);
        if (!ca || !cb) return ca == cb;
        if (ca->value.elts.size() != cb->value.elts.size()) return false;
        for (size_t d = 0; d < ca->value.elts.size(); ++d) {
          const Value &x = ca->value.elts[d], &y = cb->value.elts[d];
          if (x.constInt && y.constInt
                  ? *x.constInt != *y.constInt
                  : (x.ix == kNoIntExpr || y.ix == kNoIntExpr || !(k_.ints.form(x.ix) == k_.ints.form(y.ix))))
            return false;
        }
        return true;
      };
      for (size_t j = 0; j < acc.size(); ++j)
        for (size_t i = 0; i < j; ++i) {
          const Event &p = *acc[i], &q = *acc[j];
          if (view(p) == kNoResource || view(q) == kNoResource || (!stores(p) && !stores(q))) continue;
          // One view, or two whose bytes overlap (an alias). Two views that
          // lay the same bytes out alike (pool, offset, shape, dtype,
          // swizzle, stages) are compared as one; another layout puts an
          // element's bytes elsewhere, so its accesses never give each
          // element to the same thread.
          bool alias = view(p) != view(q) && !sameLayout(k_.resources[view(p)], k_.resources[view(q)]);
          if (view(p) != view(q)) {
            std::vector<ResourceId> shared = sharing(view(p));
            if (std::find(shared.begin(), shared.end(), view(q)) == shared.end()) continue;
          }
          // Tiles of a global tensor that share no element; in a loop around
          // both, only where no loop variable moves them.
          bool sharedLoop = !p.loops.empty() && !q.loops.empty() && p.loops.front() == q.loops.front();
          if (p.op->receiver == kNoResource && tilesApart(k_, *p.op, *q.op, sharedLoop)) continue;
          StageRef sp = effectStage(*p.op, kReceiver), sq = effectStage(*q.op, kReceiver);
          bool kp = false, kq = false;
          AffineForm fp = formOf(k_, sp, kp), fq = formOf(k_, sq, kq);
          // Other slots: constant stages that name different slots of the
          // ring (a copy into a single-stage view names a phase, not a slot).
          int64_t depth = std::max<int64_t>(1, k_.resources[view(p)].stages);
          auto slotOf = [&](int64_t c) { return ((c % depth) + depth) % depth; };
          if (!alias && kp && kq && fp.isConstant() && fq.isConstant() && slotOf(fp.constant) != slotOf(fq.constant))
            continue;
          // An alias: the bytes of the slots the two name (a constant stage:
          // its slot; else the whole view) may not meet.
          auto bytes = [&](const Event &e, const StageRef &st, bool known,
                           const AffineForm &f) -> std::pair<int64_t, int64_t> {
            const Resource &v = k_.resources[view(e)];
            if (!st.present() || !known || !f.isConstant()) return {v.offset, satAdd(v.offset, v.totalBytes)};
            return slotBytes(v, ((f.constant % v.stages) + v.stages) % v.stages);
          };
          if (alias) {
            auto bp = bytes(p, sp, kp, fp), bq = bytes(q, sq, kq, fq);
            if (std::max(bp.first, bq.first) >= std::min(bp.second, bq.second)) continue;
          }
          if (!alias && sameCoords(p, q) && sameThreadElements(path, k_, r.role, *p.op, *q.op)) continue;
          // Forward: q after p with no role sync between. On the two sides
          // of one `if` a pass through the role runs only one of them, so
          // only a path through their loop's back edge joins them, in
          // either direction.
          bool arms = otherArms(p, q);
          bool forward = !arms && !roleSyncBetween(p.index, q, /*inLists=*/true);
          // Loop-carried: `to` of the next iteration after `from`, with no
          // role sync in their common innermost loop outside from .. to.
          const IrStmt *loop = nullptr;
          for (size_t d = 0; d < p.loops.size() && d < q.loops.size() && p.loops[d] == q.loops[d]; ++d)
            loop = p.loops[d];
          // A sync counts on that path where it runs every time: in every
          // iteration of that loop (directly in its body, under no
          // condition or guard: not in an inner loop, which may run no
          // iteration), or after `from` in a statement list around it, or
          // before `to` in one around it.
          auto nextIteration = [&](const Event &from, const StageRef &sFrom, const Event &to, const StageRef &sTo) {
            // One slot per iteration keeps them apart in one view (or two
            // laid out alike), not through an alias whose slots are other
            // bytes (found by review, helper-50).
            if (loop == nullptr || (!alias && slotPerIteration(*loop, to, sTo, from, sFrom))) return false;
            for (const Event *s : syncs)
              if (std::find(s->loops.begin(), s->loops.end(), loop) != s->loops.end() &&
                  ((!s->conditional && !s->guarded && s->loops.back() == loop &&
                    (s->index > from.index || s->index < to.index)) ||
                   (s->index > from.index && inEnclosingList(*s, from)) ||
                   (s->index < to.index && inEnclosingList(*s, to))))
                return false;
            return true;
          };
          bool carried = nextIteration(q, sq, p, sp);            // p after q
          bool carriedOn = arms && nextIteration(p, sp, q, sq);  // q after p
          // A refill orders only what comes before it (after it, its wait
          // does): only a path that ends at a refill counts for one.
          if (refill(p) || refill(q)) {
            forward = forward && refill(q) && !refill(p);
            carriedOn = carriedOn && refill(q) && !refill(p);
            carried = carried && refill(p) && !refill(q);
          }
          if (!forward && !carried && !carriedOn) continue;
          bool qLate = forward || carriedOn;
          const Event &late = qLate ? q : p, &early = qLate ? p : q;
          std::string where = alias ? fmt::format(" through '{}', which shares its bytes", name(view(early))) : "";
          auto d =
              ctx_.diags.build(DiagId::SafetyFragmentCrossThread, late.op->range, name(r.role),
                               stores(late) ? "stores" : "loads", name(view(late)), stores(early) ? "stored" : "loaded",
                               where + (forward ? "" : " in the previous iteration"));
          if (stores(early))
            d.note(DiagId::NoteWrittenHere, early.op->range, name(view(early)));
          else
            d.note(DiagId::NoteReadHere, early.op->range, name(view(early)));
          d.emit();
        }
    }
  }
};

}  // namespace

void checkFragmentElements(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  FragmentElementChecks(ctx, k, f).checkFragmentElements();
}

}  // namespace cake::passes::safety
