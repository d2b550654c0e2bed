// ScheduleModel: the view of a kernel the check passes share. Each role's
// body is flattened into events (one per operation, in program order) that
// remember their enclosing loops and whether they are conditional; operands
// are read through the operation's effects in the vocabulary table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sema/SemaIR.h"

namespace cake::passes {

struct Event {
  const sema::Operation *op = nullptr;
  sema::ResourceId role = sema::kNoResource;
  std::vector<const sema::IrStmt *> loops;  // enclosing `for` statements, outermost first
  bool conditional = false;                 // under an `if`
  size_t index = 0;                         // program order within the role
};

struct RoleEvents {
  sema::ResourceId role;
  const sema::RoleBlock *block;
  std::vector<Event> events;
};

// Every `with` block's events; a role with two blocks appears twice.
std::vector<RoleEvents> collectEvents(const sema::Kernel &k);

// The resource an effect slot names (kReceiver: the receiver), or kNoResource.
sema::ResourceId effectResource(const sema::Operation &op, int8_t slot);
// The stage expression an effect slot names: `v[s]` gives s; the receiver of
// a view operation gives its `stage=` operand; null if none.
const ast::Expr *effectStage(const sema::Operation &op, int8_t slot);
// The barrier operand's stage expression (the `stage` parameter).
const ast::Expr *stageOperand(const sema::Operation &op);

// Normalised source text of an expression, for comparing stage indices.
std::string exprKey(const SourceManager &sm, const ast::Expr *e);

// How many times an event runs, when it can be told: the product of its
// loops' trip counts if all are constant.
std::optional<int64_t> constantTripCount(const Event &e);
// The loop nest as text, "range(0, K // BK, 1)" per level ("" if none).
std::string loopNestKey(const SourceManager &sm, const Event &e);

// Arrivals one execution of a signalling event contributes to its barrier
// phase (per the effects and the `per` operand; a TMA copy's elected thread
// arrives once with arrive.expect_tx).
int64_t arrivalsPerExecution(const sema::Kernel &k, const Event &e);

// The number of blocks a copy's tile is shared with (its multicast
// parameter, per the effects); 0 when it is not shared.
int64_t multicastCount(const sema::Operation &op);
// Whether the operation's signal lands in every block of the cluster.
bool signalsCluster(const sema::Operation &op);

// Blocks per cluster (1 without clusters).
int64_t clusterSize(const sema::Kernel &k);

// Bytes one execution of a CompleteTx copy delivers (its destination view's
// bytes per stage).
int64_t txBytes(const sema::Kernel &k, const sema::Operation &op);

// A release barrier: the reverse hand-off of a pipeline whose forward
// barrier guards data (signalled by copies). Waits on it pass on the first
// lap of the ring.
bool isReleaseBarrier(const sema::Kernel &k, sema::ResourceId barrier, const std::vector<RoleEvents> &roles);

}  // namespace cake::passes
