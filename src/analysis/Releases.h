// Releases: which writes a barrier's completion lets go ahead. A role that
// waits on a barrier and then writes a view is released by the barrier's
// signallers: their arrival says they are done with the view's slot, so
// the next write may land (a ring's `empty` barrier releasing a stage).
//
// Runs after: the barrier facts (KernelFacts::barriers); turn order
// (Turns.h) decides which role's arrival a wait consumes.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "analysis/ScheduleModel.h"
#include "sema/SemaIR.h"

namespace cake::analysis {

struct BarrierFacts;
struct KernelFacts;

// The views each barrier releases: those its waiters write after waiting
// on it (they overwrite them once the barrier completes), with how far
// the wait's stage leads the write's (nullopt: not a constant).
// A write is released by the nearest wait that covers it: a wait on
// another barrier between them (a ring's own `empty` inside a loop over
// tiles whose resident buffer has its own release barrier) is what lets
// that write go ahead.
struct Releases {
  // barrier -> views its waiters write after waiting -> the wait's lead
  std::map<sema::ResourceId, std::map<sema::ResourceId, std::optional<int64_t>>> views;
  // (barrier, view) -> the roles whose wait on the barrier covers a write of the view
  std::map<std::pair<sema::ResourceId, sema::ResourceId>, std::set<sema::ResourceId>> writers;
};
Releases collectReleases(const sema::Kernel &k, const std::vector<RoleEvents> &roles,
                         const std::map<sema::ResourceId, BarrierFacts> &barriers);

// Whether role `role`'s arrival on `b` releases view `v`: a wait on `b`
// covers a write of `v` in a role that consumes that arrival.
bool releasesTo(const sema::Kernel &k, const KernelFacts &f, sema::ResourceId b, sema::ResourceId v,
                sema::ResourceId role);

// The stage of view `v` an arrival at stage `r` of barrier `b` frees for
// rewriting, relative to r: it satisfies the wait at stage r + credits (a
// release barrier's first lap is free: credits = count), which covers the
// write at that stage minus the wait's lead. nullopt when the lead is not
// known.
std::optional<int64_t> freedShift(const sema::Kernel &k, const KernelFacts &f, sema::ResourceId b, sema::ResourceId v);

}  // namespace cake::analysis
