// ScheduleModel: the event view of a kernel (KernelFacts holds it). Each role's
// body is flattened into events (one per operation, in program order) that
// remember their enclosing loops and whether they are conditional; operands
// are read through the operation's effects in the vocabulary table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sema/SemaIR.h"

namespace cake::analysis {

struct Event {
  const sema::Operation *op = nullptr;
  sema::ResourceId role = sema::kNoResource;
  std::vector<const sema::IrStmt *> loops;  // enclosing `for` statements, outermost first
  // Under an `if` the analyses cannot count (conditional), or under `if`s
  // that only narrow the innermost loop to a sub-range of its iterations
  // (`k > 0`, `k == 0`, `k < n - 1`, their `else`s): then `guarded`, with
  // the iterations it runs as normal forms [first, end) of the loop variable.
  bool conditional = false;
  bool guarded = false;
  // A signal in the else-branch of an `if` whose two branches signal alike
  // (same barriers, stages and arrivals, in order): exactly one of the pair
  // runs, so the then-branch's signal counts as unconditional and this one
  // is not counted again.
  bool alternative = false;
  sema::AffineForm first, end;
  size_t index = 0;                                 // program order within the role
  const std::vector<sema::IrStmt> *body = nullptr;  // the statement list holding it
  // The statement lists around it, outermost (the role's body) first, `body` last.
  std::vector<const std::vector<sema::IrStmt> *> lists;
  int64_t threads = 0;  // how many of the role's threads execute it (executingThreads)
};

struct RoleEvents {
  sema::ResourceId role;
  const sema::RoleBlock *block;
  std::vector<Event> events;
};

// Every `with` block's events; a role with two blocks appears twice.
std::vector<RoleEvents> collectEvents(const sema::Kernel &k);

// The registers per thread a block is launched with (__launch_bounds__(threads,
// blocks_per_sm)), as allocated: the most, in the allocation unit of 8 and at
// most setmaxnreg's ceiling, at which blocks_per_sm blocks fit the register
// file, whose four quarters each hold a quarter of the resident warps (a block
// of 9 warps counts as 12 at one block per SM: 168 registers, not 224).
// setmaxnreg moves registers between warpgroups within threads x this; a
// budget above it is an increase, below a decrease.
int64_t launchRegisters(const sema::Kernel &k, Target target);

// A loop bound's (an integer value's) normal form, or nullopt.
std::optional<sema::AffineForm> boundForm(const sema::Kernel &k, const sema::Value &v);

// Whether `s` runs in every pass through the code that runs `x`: its
// statement list is x's or one around it (nothing leaves a list early).
// With s.index < x.index, s runs before x whenever x runs; with
// s.index > x.index, after it (within the same iteration of the loops
// around s).
bool inEnclosingList(const Event &s, const Event &x);
// Whether `a` and `b` lie on the two sides of one `if` (one in its body,
// the other in its else): no pass through that `if` runs both.
bool otherArms(const Event &a, const Event &b);
// Whether `cond` (negated: its opposite) holds in every iteration of `loop`
// but the first, and fails in the first (`k > 0`, `k != 0`, the else of
// `k == 0`, for a loop from 0 at step 1): a path that has come round the
// loop's back edge takes that side.
bool holdsAfterFirstIteration(const sema::Kernel &k, const sema::IrStmt &loop, const sema::Value &cond, bool negated);

// The bytes [first, second) of a view's pool that slot `slot` of it holds
// (a view of one stage: all of it).
std::pair<int64_t, int64_t> slotBytes(const sema::Resource &view, int64_t slot);
// Whether two views lay the same bytes out alike (pool, offset, shape,
// dtype, swizzle, stages): element (r, c) of one is element (r, c) of the other.
bool sameLayout(const sema::Resource &a, const sema::Resource &b);

// The resource an effect slot names (kReceiver: the receiver), or kNoResource.
sema::ResourceId effectResource(const sema::Operation &op, int8_t slot);
// A stage argument: its expression node (its normal form is what analyses
// compare) and its source expression (for messages). No expression: stage 0.
struct StageRef {
  sema::IntExprId ix = sema::kNoIntExpr;
  const ast::Expr *expr = nullptr;
  bool present() const { return expr != nullptr; }
};
// A copy's coordinates (its IntTuple parameter), or null.
const sema::Operand *copyCoords(const sema::Operation &op);
// The resource whose shape and element type are a copy's tile: its
// receiver view, or for a copy between a global tensor and registers the
// fragment it loads (its result) or stores (its register operand).
sema::ResourceId copyTile(const sema::Operation &op);
// The extents of the tile a copy moves in its tensor, outermost first:
// copyTile's shape, its rows bounded by the copy's row bound (first_rows=);
// empty where the copy has no tile.
std::vector<int64_t> copyExtent(const sema::Kernel &k, const sema::Operation &op);
// Whether two copies' tiles of one tensor share no element: in some
// coordinate, b's is a constant above a's by at least a's tile's extent
// there, or below by at least b's. With `fixed`, coordinates that move with
// a loop variable prove nothing (another iteration's tile may be the
// other's).
bool tilesApart(const sema::Kernel &k, const sema::Operation &a, const sema::Operation &b, bool fixed);
// The stage an operation names for its barrier and receiver view (the
// effects' stage slot).
StageRef stageOperand(const sema::Operation &op);
// The stage an effect slot names: `v[s]` gives s; the receiver of a view
// operation gives its `stage=` operand.
StageRef effectStage(const sema::Operation &op, int8_t slot);
// Whether two stage arguments are the same value on every input (as far as
// normal forms show; an absent stage is stage 0).
bool sameStage(const sema::Kernel &k, const StageRef &a, const StageRef &b);
// The stage form (scale * loop + offset) of a stage argument.
sema::StageForm stageForm(const sema::Kernel &k, const StageRef &s, bool allowScaled = false);
// The normal form of a stage argument (an absent stage is stage 0); `known`
// is false when it has none.
sema::AffineForm formOf(const sema::Kernel &k, const StageRef &s, bool &known);
// The stage as the author wrote it, for messages ("0" when absent).
std::string stageText(const SourceManager &sm, const StageRef &s);

// Whether two events run in loop nests with the same bounds (start, stop and
// step equal level by level, as normal forms).
// Whether two loop bounds have one normal form.
bool sameBound(const sema::Kernel &k, const sema::Value &a, const sema::Value &b);
bool sameLoopNest(const sema::Kernel &k, const Event &a, const Event &b);

// How many times an event runs, when it can be told: the product of its
// loops' trip counts if all are constant (a guarded event's sub-range for
// the innermost loop).
std::optional<int64_t> constantTripCount(const Event &e);
// How many times an event runs, as a polynomial: constant nests by their
// count; loops of step 1 (the innermost perhaps a guarded sub-range) as the
// product of their end - first (T * k_steps), its count whenever it runs;
// nullopt for other nests.
std::optional<sema::PolyForm> tripForm(const sema::Kernel &k, const Event &e);
// The iterations of the innermost loop an event runs: [first, end) as normal
// forms (the loop's bounds, or the guard's sub-range); nullopt when a bound
// has no form or the event is in no loop.
struct IterationRange {
  sema::AffineForm first, end;
};
std::optional<IterationRange> iterationRange(const sema::Kernel &k, const Event &e);
// The same with the outermost loop read as [outer.first, outer.end) at
// step 1 (roles taking turns over it count its iterations between them).
std::optional<sema::PolyForm> tripForm(const sema::Kernel &k, const Event &e, const IterationRange &outer);
// The iterations of an event's loop at nesting level i (end - first: its
// trip count whenever it runs, the guard's sub-range for the innermost).
std::optional<sema::AffineForm> levelTrips(const sema::Kernel &k, const Event &e, size_t i);
// A lower bound of a normal form's value at every launch the launcher
// accepts, when one can be told: constants; a scalar parameter that is a
// declared tensor dimension (the launcher checks it equals that dimension,
// which must be positive): 1; block and cluster indices: 0, their counts:
// 1; an index less its count (`num_blocks(0) - block_id(0)`): 1; floor
// division and products of bounded non-negative values; min and max; a loop
// variable of constant positive step: its start's bound. Other parameters
// have none.
std::optional<int64_t> lowerBound(const sema::Kernel &k, const sema::AffineForm &f);
// Whether a loop of constant positive step runs at least once at every
// launch: stop - start has a lower bound of 1 or more. A wait inside a loop
// that may run zero times may not run.
bool loopRunsAtLeastOnce(const sema::Kernel &k, const sema::IrStmt &loop);
// The iterations of an event's loops, level by level: [first, end) and the
// constant step, the outermost read as `outer` at step 1 when given, the
// innermost a guarded event's sub-range; nullopt when a bound has no form
// or a step is not a constant. Two events whose nests have equal ranges run
// equally often whatever the bounds' values (T * k_steps times, where a
// trip form has no product).
struct LevelRange {
  sema::AffineForm first, end;
  int64_t step = 1;
  bool operator==(const LevelRange &o) const { return first == o.first && end == o.end && step == o.step; }
};
std::optional<std::vector<LevelRange>> nestRanges(const sema::Kernel &k, const Event &e, const IterationRange *outer);
// A boolean operand's value the first time an event runs (every enclosing
// loop at its first iteration, a guarded event at its guard's first): a
// constant, or a comparison whose difference is constant there; nullopt
// when it cannot be told.
std::optional<bool> valueOnFirstRun(const sema::Kernel &k, const Event &e, const sema::Value &v);
// Whether `w` runs every time `e` runs: W comes first in the same role, E is
// inside every loop W is inside, and W runs unconditionally (or, guarded,
// on a range that contains E's).
bool covers(const sema::Kernel &k, const Event &w, const Event &e);
// The loop nest as the author wrote it, "range(0, K // BK, 1)" per level
// ("" if none), for messages.
std::string loopNestKey(const SourceManager &sm, const Event &e);
// A loop bound as the author wrote it ("?" when it has no source).
std::string boundText(const SourceManager &sm, const sema::Value &b);

// The threads of a role (32 per warp).
int64_t roleThreads(const sema::Kernel &k, sema::ResourceId role);

// How many threads of its role execute an operation: one elected thread
// for single-thread operations and per-role arrivals, one per warpgroup or
// warp for arrivals of that scope, every thread otherwise.
int64_t executingThreads(const sema::Kernel &k, sema::ResourceId role, const sema::Operation &op);

// Arrivals one execution of a signalling event contributes to its barrier
// phase (per the effects and the `per` operand; a TMA copy's elected thread
// arrives once with arrive.expect_tx).
int64_t arrivalsPerExecution(const sema::Kernel &k, const Event &e);

// The number of blocks a copy's tile is shared with (its multicast
// parameter, per the effects); 0 when it is not shared.
int64_t multicastCount(const sema::Operation &op);
// The cluster dimension a multicast copy shares its tile along
// (multicast_dim=), or -1: the whole cluster.
int64_t multicastDim(const sema::Operation &op);
// Whether a multicast copy's group of blocks spans cluster dimension `dim`
// (every clustered dimension without multicast_dim=, else that one only):
// its coordinates must not differ along it.
bool multicastSpans(const sema::Kernel &k, const sema::Operation &op, int64_t dim);
// Whether the operation's signal lands in every block of the cluster.
bool signalsCluster(const sema::Operation &op);

// Blocks per cluster (1 without clusters).
int64_t clusterSize(const sema::Kernel &k);
// Where a form may differ between the blocks of a cluster: the first atom
// that may (lm.block_id, lm.cluster_rank, lm.cluster_block, a value a role
// read that sema did not share, ...), as the author writes it; nullopt when
// it is the same in every block of a cluster (constants, parameters, grid
// extents, lm.cluster_id, lm.block_id(d) and lm.cluster_block(d) where the
// cluster's extent along d is 1, shared reads' values, loop variables: their
// loops are judged on their own).
std::optional<std::string> clusterVarying(const sema::Kernel &k, const sema::AffineForm &f, int depth = 0);

// Bytes one execution of a CompleteTx copy delivers (its destination view's
// bytes per stage).
int64_t txBytes(const sema::Kernel &k, const sema::Operation &op);

}  // namespace cake::analysis
