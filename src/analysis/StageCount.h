// StageCount: how the stages a role names on a barrier run. Stage s of a
// barrier is mbarrier s mod count in phase s div count, so each role's uses
// must name its running count of uses; these are the forms in which the
// safety gate can follow that count:
//  - linearStage: a stage index as a linear form over the loops around a
//    use (one running count over consecutive nested loops);
//  - Region: a running count over the body of an outermost loop, chaining
//    sibling loops and straight-line uses (computed once per kernel for
//    every role, barrier and outermost loop a use names:
//    KernelFacts::stageRegion).
//
// Runs after: the barrier facts (roles taking turns over a loop share its
// count).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "analysis/ScheduleModel.h"
#include "sema/SemaIR.h"

namespace cake::analysis {

struct KernelFacts;

// A stage index as (loop, scale, offset): scale times an enclosing loop's
// variable plus a loop-invariant offset (a constant, or parameters), or
// the offset alone (loop null), read from its normal form. ok is false for
// any other form.
struct LinearStage {
  const sema::IrStmt *loop = nullptr;  // the outermost loop of the running count
  size_t nest = 0;                     // how many nested loops it counts over
  int64_t scale = 0;                   // the innermost loop's coefficient
  int64_t outerScale = 0;              // the outermost loop's coefficient
  sema::AffineForm offset;             // with the inner loops' first values folded in
  bool ok = false;
  std::string notRunning;  // why a count over nested loops repeats or skips stages
  // The outermost loop's coefficient when it is a run-time factor
  // (t * k_steps + k over k in range(0, k_steps)); outerScale is unused then.
  std::optional<sema::AffineForm> outerScaled;
  // outerScale * x + offset; nullopt on overflow, or when the coefficient
  // is a run-time factor and x is not a constant.
  std::optional<sema::AffineForm> at(const sema::AffineForm &x) const {
    if (!outerScaled) return sema::IntExprTable::combine(offset, x, outerScale);
    if (!x.isConstant()) return std::nullopt;
    return sema::IntExprTable::combine(offset, *outerScaled, x.constant);
  }
};
// A running count over consecutive nested loops (t * 4 + k for k in
// range(0, 4)) is one sequence: each outer coefficient is the inner one
// times the inner loop's constant trip count. The outermost coefficient
// may be a run-time factor equal to that count (t * k_steps + k for k in
// range(0, k_steps)) when the nest is two loops deep.
LinearStage linearStage(const sema::Kernel &k, const SourceManager &sm, const StageRef &s, const Event &ev);
LinearStage linearStageOf(const sema::Kernel &k, const SourceManager &sm, const sema::StageForm &f, const Event &ev);

// A running count over the body of an outermost loop O: the role's uses
// of a barrier inside O name C * O plus stages that, within one iteration
// of O, run from some base through base + C - 1 in program order, over
// sibling loops and straight-line uses (ThunderKittens' producer: three
// prefetched stages, a wait on another barrier, then the rest). The whole
// body is then one running count, C * O + base over O's iterations.
struct Region {
  const sema::IrStmt *loop = nullptr;  // O
  int64_t coeff = 0;                   // C
  // C when it is a run-time factor (j * k_steps + ...): coeff is unused.
  std::optional<sema::AffineForm> coeffScaled;
  sema::AffineForm base;         // the body's first stage, less C * O
  const Event *first = nullptr;  // the body's first use
  int units = 0;                 // inner loops and straight-line stages it chains
  int loops = 0;                 // of which inner loops
  // Set when the body's uses do chain into whole units but not into one
  // count: the use where the chain breaks, and why.
  const Event *badAt = nullptr;
  std::string why;
  // Set when the chain holds only if an inner loop's run-time span is not
  // negative, which the analysis cannot prove (`range(3, ks)`): the loop
  // whose span it is.
  const sema::IrStmt *unprovenSpan = nullptr;
  // base + C * x; nullopt on overflow, or for a run-time C and an x that
  // is not a constant.
  std::optional<sema::AffineForm> at(const sema::AffineForm &x) const {
    if (!coeffScaled) return sema::IntExprTable::combine(base, x, coeff);
    if (!x.isConstant()) return std::nullopt;
    return sema::IntExprTable::combine(base, *coeffScaled, x.constant);
  }
  std::string coeffText() const { return coeffScaled ? std::string("its run-time count") : std::to_string(coeff); }
};
// The running count over the body of role r's outermost loop O on barrier
// b, if its uses there form one (a loop of roles taking turns steps by
// their number: its iterations are the role's share of the count).
using StageRegions =
    std::map<std::tuple<const sema::RoleBlock *, sema::ResourceId, const sema::IrStmt *>, std::optional<Region>>;
StageRegions collectStageRegions(const sema::Kernel &k, const SourceManager &sm, const KernelFacts &f);

// The barrier an event waits on or signals, or kNoResource.
sema::ResourceId barrierOf(const Event &e);
// f + n (saturating).
sema::AffineForm plusConstant(const sema::AffineForm &f, int64_t n);

}  // namespace cake::analysis
