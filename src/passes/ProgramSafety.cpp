// ProgramSafety: the schedule cannot read stale data, race, or hang.
//
// The gate is a list of named sub-checks (passes/safety/, one file per
// subject; each file's header says its rules), run in this order:
//  - checkStageForms, checkStageSequence, checkTurnOrder (Stages.cpp): each
//    role's stages of a barrier are its running count of uses, and roles
//    taking turns on a ring wait in turn;
//  - checkReadBeforeWait, checkHandOffs (DataFlow.cpp): a role reads what
//    another role writes only after waiting on the barrier that hands it over;
//  - checkReadUnderCopy (ReadUnderCopy.cpp): nor a slot its own copy into it
//    may still be landing in;
//  - checkSignalled, checkArrivalCounts, checkTripCounts, checkCircularWait
//    (Barriers.cpp): every awaited barrier is signalled, with as many
//    arrivals per phase as its init_count says, as often as it is awaited,
//    and no two roles wait on each other before either signals;
//  - checkRingReuse, checkMulticastRelease (DataFlow.cpp): a producer that
//    wraps around its ring waits for the stage's release;
//  - checkProxyFences (ProxyFences.cpp): generic-proxy writes read by the
//    async proxy are fenced on every path, and synced where other warps or
//    one elected thread read them; a role's
//    threads touching a view through register fragments of different
//    layouts (analysis::sameThreadElements) sync between the accesses;
//  - checkTxBytes (Barriers.cpp): transaction bytes fit the mbarrier;
//  - checkNamedBarrierMeetings (NamedBarriers.cpp): exactly the roles of a
//    named barrier meet at it, each as often as the others;
//  - checkReleaseInFlight (InFlight.cpp): nothing is released or
//    overwritten while an asynchronous read of it may still run;
//  - checkPartialRelease, checkReadAfterRelease (Releases.cpp): a release
//    comes after every thread's reads, and no read follows it;
//  - checkWritten (DataFlow.cpp): what is read was written first, and two
//    roles writing one view are ordered;
//  - checkAliasRaces (Aliases.cpp): views sharing bytes through an alias are
//    handed over like one view;
//  - checkCrossBlock (CrossBlock.cpp): what blocks hand each other through
//    the workspace is read after an acquiring atomic's branch, written before
//    the releasing atomic, counted to the last block, and the counter reset;
//  - checkFlagWaits (FlagWaits.cpp): blocks that take turns through a flag
//    (lm.wait_flag) pass each turn on with the value the next block waits
//    for, leave the flag at 0, and hand data on only in turn;
//  - checkClusterCounts (CrossBlock.cpp): operations by which a cluster's
//    blocks meet at each other's barriers (multicast copies, cluster
//    arrivals) run as often in every block: their loops' bounds and guards
//    are the same in every block of the cluster.
//
// The program-point facts these read (which asynchronous work is in flight
// where, how roles sharing a ring take turns, which writes a barrier
// releases, how stages run, which thread holds which element) are the
// analysis layer's (src/analysis/: AsyncFlight, Turns, Releases, StageCount,
// Tiling), computed once per kernel.
//
// Where it cannot decide (stage indices it cannot relate, symbolic trip
// counts that differ in form, conditional copies) it warns under -Wunproven
// rather than passing silently.
#include <algorithm>
#include <set>

#include "analysis/Paths.h"
#include "passes/Passes.h"
#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"

namespace cake::passes {

namespace safety {

std::string Checker::stageOf(ResourceId view, const StageRef &s) const {
  return k_.resources[view].stages > 1 ? "stage " + stageText(ctx_.sm, s) + " of " : std::string();
}

bool Checker::ownWriteBefore(const Event &e, ResourceId v, const StageRef &stage) const {
  for (const RoleEvents &r : roles_)
    for (const Event &w : r.events)
      if (w.role == e.role && effectResource(*w.op, w.op->info().effects.writes) == v &&
          effectResource(*w.op, w.op->info().effects.signals) == kNoResource && covers(k_, w, e) &&
          (k_.resources[v].stages <= 1 || sameStage(k_, stageOperand(*w.op), stage)))
        return true;
  return false;
}

bool Checker::sameStagesInEarlierLoop(const Event &a, const StageRef &sa, const Event &b, const StageRef &sb,
                                      std::optional<int64_t> *trips) const {
  if (a.role != b.role || a.index >= b.index || a.conditional || a.guarded || b.conditional || b.guarded ||
      a.loops.empty() || a.loops.size() != b.loops.size() || a.loops.back() == b.loops.back() ||
      !std::equal(a.loops.begin(), a.loops.end() - 1, b.loops.begin()))
    return false;
  // The stage is a running count over the innermost loop alone (its
  // variable plus an offset), or over enclosing loops the two share down to
  // it (t * 4 + j: each iteration of t names the next block of stages).
  auto counted = [&](const Event &e, const StageRef &s, analysis::LinearStage &ls) {
    ls = analysis::linearStage(k_, ctx_.sm, s, e);
    const IrStmt *inner = e.loops.back();
    if (!ls.ok || !ls.notRunning.empty() || inner->step != 1 || inner->start.ix == kNoIntExpr ||
        inner->stop.ix == kNoIntExpr)
      return false;
    if (ls.nest == 1) return ls.loop == inner && ls.outerScale == 1 && !ls.outerScaled;
    auto at = std::find(e.loops.begin(), e.loops.end(), ls.loop);
    return ls.scale == 1 && at != e.loops.end() && static_cast<size_t>(e.loops.end() - at) == ls.nest;
  };
  analysis::LinearStage la, lb;
  if (!counted(a, sa, la) || !counted(b, sb, lb) || la.nest != lb.nest) return false;
  if (la.nest > 1 && (la.loop != lb.loop || la.outerScale != lb.outerScale || la.outerScaled != lb.outerScaled))
    return false;
  const IrStmt *ia = a.loops.back(), *ib = b.loops.back();
  const AffineForm &start = k_.ints.form(ia->start.ix), &stop = k_.ints.form(ia->stop.ix);
  const AffineForm &startB = k_.ints.form(ib->start.ix), &stopB = k_.ints.form(ib->stop.ix);
  std::optional<int64_t> n = IntExprTable::constantDifference(stop, start);
  if (trips) *trips = n;
  if (la.offset == lb.offset && start == startB && stop == stopB) return true;
  // Over one loop each: the same sequence of stages from other bounds (the
  // refills `j + 4` over range(0, 4), waited for at `j` over range(4, 8)):
  // the same first stage and the same constant trip count.
  if (la.nest != 1 || !n || n != IntExprTable::constantDifference(stopB, startB)) return false;
  std::optional<AffineForm> firstA = IntExprTable::combine(la.offset, start, 1),
                            firstB = IntExprTable::combine(lb.offset, startB, 1);
  return firstA && firstB && *firstA == *firstB;
}

std::vector<ResourceId> Checker::written(const Event &e) {
  std::vector<ResourceId> out;
  if (ResourceId w = effectResource(*e.op, e.op->info().effects.writes); w != kNoResource) out.push_back(w);
  if (e.op->result.kind == ValueKind::Resource && e.op->result.resource != kNoResource)
    out.push_back(e.op->result.resource);
  for (const Value &x : e.op->result.elts)  // a pair of fragments (lm.rowargmin)
    if (x.kind == ValueKind::Resource && x.resource != kNoResource) out.push_back(x.resource);
  return out;
}

bool Checker::readsResource(const Event &e, ResourceId v) const {
  for (int8_t slot : e.op->info().effects.reads)
    if (effectResource(*e.op, slot) == v) return true;
  return false;
}

std::vector<ResourceId> Checker::sharing(ResourceId v) const {
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

bool Checker::sameSlots(ResourceId a, ResourceId b) const {
  const Resource &x = k_.resources[a], &y = k_.resources[b];
  return a == b || (x.pool == y.pool && x.offset == y.offset && x.stages == y.stages && x.totalBytes == y.totalBytes);
}

bool Checker::pathAvoiding(const Event &from, const Event &to, const std::vector<const Event *> &cut) const {
  return analysis::pathAvoiding(k_, from, to, cut);
}

bool Checker::everyPathFromStart(const IrStmt &loop, const Event &to, const std::vector<const Event *> &cut) const {
  return analysis::everyPathFromStart(k_, loop, to, cut);
}

const IrStmt *Checker::stagesApartInIteration(const Event &a, const StageRef &sa, const Event &b, const StageRef &sb,
                                              int64_t stages) const {
  if (stages <= 1 || !sa.present() || !sb.present()) return nullptr;
  const IrStmt *loop = nullptr;  // the innermost loop around both
  for (size_t i = 0; i < std::min(a.loops.size(), b.loops.size()) && a.loops[i] == b.loops[i]; ++i) loop = a.loops[i];
  if (!loop) return nullptr;
  StageForm fa = analysis::stageForm(k_, sa), fb = analysis::stageForm(k_, sb);
  if (!fa.ok || !fb.ok || fa.scaledLoop || fb.scaledLoop || fa.loops != fb.loops) return nullptr;
  // Only variables of loops around both: one value each in one iteration.
  auto around = [](const Event &e, uint32_t id) {
    return std::any_of(e.loops.begin(), e.loops.end(), [id](const IrStmt *l) { return l->loopId == id; });
  };
  for (const auto &term : fa.loops)
    if (!around(a, term.first) || !around(b, term.first)) return nullptr;
  // a ahead of b by less than a lap: b's stage in a later iteration is a's
  // before the slot's next phase (further ahead, the copy would land over a
  // slot still to be read: stage-sequence's, not a case to tell apart).
  std::optional<int64_t> d = IntExprTable::constantDifference(fa.offset, fb.offset);
  if (!d || *d <= 0 || *d >= stages) return nullptr;
  return loop;
}

bool Checker::roleSyncBetween(size_t after, const Event &x, bool inLists) const {
  for (const RoleEvents &r : roles_)
    for (const Event &s : r.events)
      if (s.role == x.role && s.op->info().effects.syncsRole && s.index > after && s.index < x.index &&
          (covers(k_, s, x) || (inLists && inEnclosingList(s, x))))
        return true;
  return false;
}

int64_t Checker::completionUnit(const Event &e, int64_t all) const {
  const OpEffects &fx = e.op->info().effects;
  if (fx.single) return all;
  if (fx.group == AsyncGroup::Mma && targetInfo(ctx_.module.target).mma == MmaPath::Wgmma) return 128;
  return 32;
}

const char *Checker::unitName(int64_t threads, int64_t all) {
  if (threads >= all) return "role";
  return threads >= 128 ? "warpgroup" : threads >= 32 ? "warp" : "thread";
}

}  // namespace safety

void checkProgramSafety(const PassContext &ctx, const sema::Kernel &k, const KernelFacts &f) {
  using namespace safety;
  static const SubCheck kChecks[] = {
      checkStageForms,      checkStageSequence,  checkTurnOrder,        checkReadBeforeWait, checkReadUnderCopy,
      checkHandOffs,        checkSignalled,      checkArrivalCounts,    checkTripCounts,     checkNamedBarrierMeetings,
      checkCircularWait,    checkRingReuse,      checkMulticastRelease, checkProxyFences,    checkTxBytes,
      checkReleaseInFlight, checkPartialRelease, checkReadAfterRelease, checkWritten,        checkAliasRaces,
      checkCrossBlock,      checkFlagWaits,      checkClusterCounts,
  };
  for (SubCheck check : kChecks) check(ctx, k, f);
}

}  // namespace cake::passes
