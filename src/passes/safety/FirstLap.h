// FirstLap: what a role's waits need on the first lap (ProgramSafety's
// circular-wait check, Barriers.cpp): the largest stage a wait names before
// another event of its role first runs, whether a release barrier's
// credits free it, and the stage forms those need (products multiplied
// out, loop variables substituted).
#pragma once

#include <optional>

#include "passes/safety/Safety.h"

namespace cake::passes::safety {

class FirstLap : public Checker {
public:
  using Checker::Checker;

protected:
  static std::optional<int64_t> tripsOf(const IrStmt *l);
  // Whether role `role`'s waits on `b` that run before event `until` first
  // does all pass on the first lap: `b` is a release barrier, whose stages
  // 0 .. count - 1 are free, and every such wait names a stage below count
  // over the iterations that run before `until` (maxStageBefore).
  bool firstLapPasses(ResourceId role, ResourceId b, const Event &until) const;
  // The largest stage wait `e` names before event `until` of its role
  // first runs (`runs`: whether it runs before at all), over the loop
  // variables' values by then: a loop around both at its first iteration,
  // or, where `until` is guarded in it, up to the iteration its guard first
  // holds; a loop around `e` alone over all its iterations; `e`'s own
  // guard's iterations. nullopt where that is not a constant.
  std::optional<int64_t> maxStageBefore(const Event &e, const Event &until, bool &runs) const;
  // The stage of role `q`'s first signal of `b` (every loop variable at its
  // loop's start), where that is a constant.
  std::optional<int64_t> firstSignalStage(ResourceId q, ResourceId b) const;
  // `p` with loop `loopId`'s variable replaced by `value`.
  std::optional<PolyForm> substituteLoop(const PolyForm &p, uint32_t loopId, const AffineForm &value) const;
};

}  // namespace cake::passes::safety
