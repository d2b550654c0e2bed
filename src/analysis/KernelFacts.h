// KernelFacts: the facts of one kernel, computed once after semantic
// analysis and read by every gate (src/passes/) and by codegen.
//
//  - events: each role's operations in program order, with their loops;
//  - barriers: who signals and who waits on each barrier, whether it guards
//    data (a copy completes on it) and whether it is a release barrier (the
//    reverse hand-off of a data barrier, whose first lap passes);
//  - tensor maps: the one box, dtype, swizzle and multicast each tensor is
//    copied with, and every copy that disagrees with its tensor's map;
//  - core-matrix views: the unswizzled views a descriptor-fed tensor core
//    (wgmma, tcgen05) reads, which are laid out as 16-byte panels;
//  - program-point facts: the asynchronous work in flight at each operation
//    and at each role's end (AsyncFlight.h), the views each barrier
//    releases (Releases.h), and the running counts of stages over loop
//    bodies (StageCount.h); how roles sharing a barrier take turns
//    (Turns.h) is part of the barrier facts.
//
// Runs after: sema::analyze with no errors. The structure points into the
// kernel it was computed from and is read-only afterwards.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/AsyncFlight.h"
#include "analysis/Coverage.h"
#include "analysis/CrossBlock.h"
#include "analysis/Family.h"
#include "analysis/Releases.h"
#include "analysis/ScheduleModel.h"
#include "analysis/StageCount.h"
#include "analysis/Turns.h"
#include "sema/SemaIR.h"

namespace cake::analysis {

// A role's signals on a barrier that land in one phase: those in one
// iteration of one loop nest naming one stage (each time it runs, one
// phase). Copies of a site in one statement list share one arrive.expect_tx
// carrying all their bytes (copies under a branch get their own).
struct SignalSite {
  std::vector<const sema::IrStmt *> loops;
  const Event *first = nullptr;                            // its first signal, in program order
  std::vector<const Event *> copies;                       // copies completing bytes
  std::vector<std::pair<const Event *, int64_t>> arrives;  // other signals, with the arrivals each makes
  int64_t count = 0;                                       // arrivals: the copies' expect_tx, plus the arrives
  int64_t txBytes = 0;                                     // bytes the copies deliver
};

// One role's arrivals on a barrier: its sites (in program order) and the
// arrivals per phase, which every site must give alike (`uneven` if not).
struct RoleArrivals {
  std::vector<SignalSite> sites;
  int64_t count = 0;  // of the first site
  bool uneven = false;
};

struct BarrierFacts {
  std::vector<const Event *> signals;              // events that signal it, in role then program order
  std::vector<const Event *> waits;                // events that wait on it
  std::set<sema::ResourceId> signallers, waiters;  // their roles
  bool data = false;                               // a copy completes transaction bytes on it
  // Its first lap's waits pass: declared credits=count, or (undeclared)
  // the reverse hand-off of a data barrier of its pipeline.
  bool release = false;
  // The protocol per phase: arrivals by role, their total, the transaction
  // bytes the copies deliver (the most any site delivers), and whether a
  // signal or copy is conditional (then the counts hold only when every
  // branch is taken).
  std::map<sema::ResourceId, RoleArrivals> arrivals;
  // Roles taking turns (above): their signals count once per phase.
  std::optional<Turns> waitTurns, signalTurns;
  int64_t arrivalsPerPhase = 0;
  int64_t txBytesPerPhase = 0;
  bool conditionalSignals = false;
  bool conditionalCopies = false;
};

// What one tensor parameter's tensor map holds (from its first copy).
struct TensorMap {
  sema::ResourceId tensor = sema::kNoResource;
  std::vector<int64_t> box;  // outermost first, as the view's shape
  sema::DType dtype = sema::DType::BF16;
  sema::Swizzle swizzle = sema::Swizzle::None;
  int64_t multicast = 0;      // > 1: each block copies 1/multicast of the outer dimension
  bool coreMatrices = false;  // the view is laid out as 16-byte panels (KernelFacts::coreMatrixViews)
  const sema::Operation *firstUse = nullptr;
  // The box's outer dimension may be cut to the tensor's extent there when
  // the tensor is shorter than the box (a decode GEMM's 64-row tile of A with
  // M = 16): TMA then copies only the tensor's rows instead of zero-filling
  // the rest, which costs as much as copying them. The cut is exact, not an
  // approximation: every copy's outer coordinate is proven not negative, so
  // the rows a cut box leaves out are rows past the tensor (zeros, or
  // dropped stores), and the views the tensor is loaded into are written by
  // nothing else and alias no other view, so their rows past the cut, zeroed
  // once when the kernel starts, stay zero. clipExtent: the scalar parameter
  // that is the tensor's outer dimension (kNoResource: no cut); clipViews:
  // the views it is loaded into, whose rows past the cut are zeroed.
  sema::ResourceId clipExtent = sema::kNoResource;
  std::vector<sema::ResourceId> clipViews;
  std::string noClip;  // why the box is not cut (--emit=ir)
  // The roles that read clipViews (the tensor core's role, usually one):
  // when one role reads them, it zeroes their rows past the cut as it starts,
  // while the first copies are still in flight.
  std::set<sema::ResourceId> clipReaders;
};

// A copy of a tensor whose box, dtype, swizzle or multicast differs from the
// tensor's map.
struct TensorMapConflict {
  sema::ResourceId tensor;
  const sema::Operation *first;  // the copy that set the map
  const sema::Operation *at;     // the disagreeing copy
};

struct KernelFacts {
  const sema::Kernel *kernel = nullptr;
  std::vector<RoleEvents> roles;
  std::map<sema::ResourceId, BarrierFacts> barriers;
  std::map<sema::ResourceId, TensorMap> tensorMaps;
  std::vector<TensorMapConflict> tensorMapConflicts;
  // Unswizzled two-dimensional views that an MMA reads through shared-memory
  // descriptors (wgmma, tcgen05). The tensor core reads an unswizzled operand
  // as core matrices of 8 rows by 16 bytes, each 128 contiguous bytes, so
  // such a view is laid out as panels 16 bytes wide (every row's next 16
  // bytes, the rows one after another, the panels one after another), one
  // TMA box each, instead of row by row. The descriptor's byte offsets then
  // step between core matrices: 128 bytes within a panel, one panel across.
  std::set<sema::ResourceId> coreMatrixViews;
  // Copies that complete bytes on one barrier stage from one statement list
  // share one arrive.expect_tx, issued before the first of them with the
  // bytes of all: the first copy of each group -> those bytes.
  std::map<const sema::Operation *, int64_t> expectTx;
  // The copies of each such group (its first copy -> all of them, in program
  // order): codegen subtracts the rows a cut box leaves out (TensorMap::clipExtent).
  std::map<const sema::Operation *, std::vector<const sema::Operation *>> expectTxCopies;

  // Async groups a role's code leaves in flight when it ends (a TMA store
  // never waited for, a wgmma whose result is never read): the lowering
  // waits for them before the role ends, so no shared memory or register is
  // read or written after the block exits. By `with` block, in the order
  // tensor-core groups, bulk stores.
  std::map<const sema::RoleBlock *, std::vector<sema::AsyncGroup>> drains;

  // What is in flight at each operation, per `with` block (asyncFlight).
  std::vector<RoleFlight> flight;
  // The views each barrier releases (collectReleases).
  Releases releases;
  // The running count over each outermost loop's body, for every role,
  // barrier and outermost loop a use names (collectStageRegions).
  StageRegions stageRegions;

  // What blocks hand each other through the workspace (collectCrossBlock).
  CrossBlockFacts crossBlock;
  // What the writes of each tensor parameter leave unwritten (Coverage.h).
  std::vector<OutputCoverage> outputCoverage;
  // Tensor parameters whose stores provably overlap between blocks (CrossBlock.h).
  std::vector<OutputOverlap> outputOverlaps;
  // Which tensor parameters the operations read and write (Coverage.h).
  std::map<sema::ResourceId, ParamAccess> paramAccess;

  // The facts of a barrier (empty ones for a barrier nothing uses).
  const BarrierFacts &barrier(sema::ResourceId b) const;
  // The running count over the body of role r's outermost loop O on barrier
  // b (one a use of b in O names).
  const std::optional<Region> &stageRegion(const RoleEvents &r, sema::ResourceId b, const sema::IrStmt *O) const;
};

// The facts of every kernel of a module, in the module's order.
struct ModuleFacts {
  std::vector<KernelFacts> kernels;   // every compiled kernel's (Module::compiledKernels)
  std::vector<FamilyFacts> families;  // in Module::families order
  const KernelFacts &of(const sema::Kernel &k) const;
};

KernelFacts analyzeKernel(const sema::Kernel &k, Target target, const SourceManager &sm);
ModuleFacts analyzeModule(const sema::Module &m, const SourceManager &sm);

// The tensor parameter a copy operation maps (its TensorP parameter), or
// kNoResource when the operation copies no tensor.
sema::ResourceId copiedTensor(const sema::Operation &op);
// The bytes of one row (the innermost dimension) of a view (0 for a view of no shape).
int64_t viewRowBytes(const sema::Resource &view);
// "128x64 bf16, swizzle 128B": a tensor map's box as text ("..., 16-byte
// core-matrix panels" for a core-matrix view).
std::string describeBox(const std::vector<int64_t> &box, sema::DType dtype, sema::Swizzle swizzle,
                        bool coreMatrices = false);

// `--emit=ir` appendix: each barrier's protocol (who arrives how often, who
// waits, arrival count, transaction bytes, phases per lap).
std::string describeBarrierProtocols(const sema::Module &m, const ModuleFacts &facts);

}  // namespace cake::analysis
