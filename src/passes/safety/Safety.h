// The safety gate's sub-checks (passes/ProgramSafety.cpp runs them in
// order, and its header comment lists them) and what they share: the pass
// context, the kernel and its facts, and a few questions about events that
// several sub-checks ask. Internal to passes/.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/KernelFacts.h"
#include "passes/Passes.h"

namespace cake::passes::safety {

using namespace sema;
using namespace analysis;

// The base of every sub-check: its members are what each reads.
class Checker {
public:
  Checker(const PassContext &ctx, const Kernel &k, const KernelFacts &f)
      : ctx_(ctx), k_(k), roles_(f.roles), uses_(f.barriers), facts_(f) {}

protected:
  const std::string &name(ResourceId id) const { return k_.resources[id].name; }
  std::string key(const StageRef &s) const { return stageText(ctx_.sm, s); }
  // "stage k of " for a staged view, nothing for a view of one stage.
  std::string stageOf(ResourceId view, const StageRef &s) const;

  // True if role `e.role` itself wrote `v` with an ordinary store that runs
  // before `e` every time it does (covers), at the stage `e` reads (it then
  // reads its own data); its asynchronous copies, which complete on a
  // barrier, do not count (those need a wait), nor a store elsewhere.
  bool ownWriteBefore(const Event &e, ResourceId v, const StageRef &stage) const;
  // Whether `a` runs in a loop that ends before the loop of `b` begins, both
  // in the same enclosing loops, with step 1 and the same bounds, the stages
  // `sa` and `sb` each the loop's variable plus the same offset, or the same
  // running count over enclosing loops down to it (t * 4 + j), or (one loop
  // each) the same first stage over the same constant trip count (`j + 4`
  // over range(0, 4), `j` over range(4, 8)): by the time b's loop starts,
  // a's has named every stage b's will, in the same order, in this iteration
  // of the enclosing loops. `trips`: the inner loops' constant trip count,
  // if any.
  bool sameStagesInEarlierLoop(const Event &a, const StageRef &sa, const Event &b, const StageRef &sb,
                               std::optional<int64_t> *trips = nullptr) const;
  // The resource an event writes through its effects, and the fragment an
  // operation defines (its result).
  static std::vector<ResourceId> written(const Event &e);
  bool readsResource(const Event &e, ResourceId v) const;
  // Views sharing bytes with `v` through an alias (either declared
  // alias=True), `v` itself included.
  // Whether two views sharing bytes have the same slots (one offset, stage
  // count and size): an alias that names the same buffer.
  bool sameSlots(ResourceId a, ResourceId b) const;
  std::vector<ResourceId> sharing(ResourceId v) const;
  // Whether a role sync of x's role lies after event index `after` and
  // before x, every time x runs. `inLists`: a sync earlier in a statement
  // list around x counts too (it runs before x whenever x does, but it may
  // also run where the event at `after` does not: in a sibling branch of
  // it, or before it), for callers whose event at `after` runs whenever x
  // does or else meets no x (two accesses in one pass of the same code).
  bool roleSyncBetween(size_t after, const Event &x, bool inLists = false) const;
  // Whether role r's own read x (of operand `slot`) of a view of `stages`
  // slots is over in every thread before r's elected thread's copy e into
  // the same slot (OwnReads.cpp); and the straight-line form of that check,
  // reported as safety.refill-under-read (true when it reported).
  bool ownReadOrdered(const RoleEvents &r, const Event &e, const Event &x, int8_t slot, int64_t stages) const;
  bool checkStraightRefill(const RoleEvents &r, const Event &e, ResourceId v) const;
  // analysis/Paths.h's path queries on this kernel.
  bool pathAvoiding(const Event &from, const Event &to, const std::vector<const Event *> &cut) const;
  bool everyPathFromStart(const IrStmt &loop, const Event &to, const std::vector<const Event *> &cut) const;
  // The innermost loop around both events, where in one iteration of it
  // a's stage is ahead of b's (of a view of `stages` slots) by a constant
  // between 1 and `stages` - 1: the same variables of loops around both
  // with the same coefficients, offsets a constant apart. Then no path that
  // stays in one iteration carries what a names to b, and b's stage names
  // a's in a later iteration, before the slot's next phase. Null otherwise
  // (not proven).
  const IrStmt *stagesApartInIteration(const Event &a, const StageRef &sa, const Event &b, const StageRef &sb,
                                       int64_t stages) const;
  // The threads whose reads one thread's completion wait covers: a
  // warpgroup for wgmma (its wait_group retires the warpgroup's groups), the
  // whole role for a single-thread operation (the elected thread that also
  // arrives), a warp for the rest (a warp's loads have returned when any of
  // its lanes goes on).
  int64_t completionUnit(const Event &e, int64_t all) const;
  static const char *unitName(int64_t threads, int64_t all);

  const PassContext &ctx_;
  const Kernel &k_;
  const std::vector<RoleEvents> &roles_;
  const std::map<ResourceId, BarrierFacts> &uses_;
  const KernelFacts &facts_;
};

// The sub-checks, by file. Each reports through ctx.diags.
using SubCheck = void (*)(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// Stages.cpp
void checkStageForms(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkStageSequence(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkTurnOrder(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// Barriers.cpp
void checkSignalled(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkArrivalCounts(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkTripCounts(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkClusterCounts(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkCircularWait(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkTxBytes(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// DataFlow.cpp
void checkReadBeforeWait(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkHandOffs(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkRingReuse(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkMulticastRelease(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkProxyFences(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// ReadUnderCopy.cpp
void checkReadUnderCopy(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// Across roles: the writer fences generic stores before handing them to
// an async reader (HandOffFences.cpp; run by checkProxyFences).
void checkHandOffFences(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// Within a role: accesses through register fragments give each element to
// the same thread or are synced (FragmentElements.cpp; run by checkProxyFences).
void checkFragmentElements(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkWritten(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// Aliases.cpp
void checkAliasRaces(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// Releases.cpp
void checkPartialRelease(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
void checkReadAfterRelease(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// InFlight.cpp
void checkReleaseInFlight(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// CrossBlock.cpp
void checkCrossBlock(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// FlagWaits.cpp
void checkFlagWaits(const PassContext &ctx, const Kernel &k, const KernelFacts &f);
// NamedBarriers.cpp
void checkNamedBarrierMeetings(const PassContext &ctx, const Kernel &k, const KernelFacts &f);

}  // namespace cake::passes::safety
