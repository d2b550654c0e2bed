// AsyncFlight: per operation, the asynchronous work that may still be in
// flight when a role reaches it, and what retires it.
//
// Tensor-core groups (wgmma; tcgen05, whose reads end only at a commit's
// arrival; not mma.sync, which is synchronous) and bulk stores (TMA) read
// their operands after they are issued. A wgmma or bulk read ends when a
// wait of its family leaves fewer groups in flight than were committed
// after it; a register fragment a wgmma reads or writes is the tensor
// core's until then. The walk follows each role's statements in order: an
// `if` merges what is in flight after either side, a loop is followed into
// its later iterations (as many as a read may stay in flight across: the
// deepest ring or the largest pending count), and a loop that may run zero
// times merges what was in flight before it, since its waits may not run.
//
//  - asyncFlight: the walk, as the points where something is in flight;
//  - accessEnd: where a role's access of a view is over;
//  - roleEndDrains: the groups a role's code leaves in flight when it ends
//    (KernelFacts::drains, which the lowering waits for), read off the same
//    walk, so the gate and the lowering agree on what is in flight.
//
// Runs after: collectEvents.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "analysis/ScheduleModel.h"
#include "sema/SemaIR.h"
#include "target/TargetInfo.h"

namespace cake::analysis {

// One read (or accumulator write) still in flight.
struct FlightRead {
  sema::ResourceId view;  // a view, or a register fragment the tensor core reads or writes
  sema::AffineForm stage;
  bool stageKnown;
  const sema::Operation *op;
  bool written = false;  // the fragment is the operation's accumulator
  // The elected thread has waited for it, but the role's other threads have
  // not yet synchronised with that wait (a role sync ends it).
  bool waited = false;
};

// An operation as the walk reaches it (once per iteration walked), with
// the reads in flight before it and once its own effects apply (a commit,
// a wait, a role sync); in-flight reads are listed family by family
// (tensor core, then bulk), reads not yet in a group first, then each
// committed group, oldest first, then those only the elected thread has
// waited for.
struct FlightPoint {
  const sema::Operation *op = nullptr;
  std::vector<FlightRead> before;
  bool changes = false;  // its effects change what is in flight
  std::vector<FlightRead> afterChange;
  const std::vector<FlightRead> &after() const { return changes ? afterChange : before; }
};

// One `with` block's walk, in walk order; points where nothing is in flight
// are left out.
struct RoleFlight {
  const sema::RoleBlock *block = nullptr;
  std::vector<FlightPoint> points;
  // What is still in flight when the block's statements end, on any path
  // (before any drain the lowering adds).
  std::vector<FlightRead> atEnd;
};

// The async family whose reads outlive the operation: tensor-core groups
// (not on mma.sync targets, where the MMA is synchronous) and bulk stores.
sema::AsyncGroup trackedGroup(const sema::Operation &op, Target target);
// Whether `op` reads shared memory through the async proxy on `target`, so
// that generic-proxy stores before it need a proxy fence: a TMA store, a
// wgmma or tcgen05 MMA; not mma.sync, which reads with ldmatrix.
bool readsThroughAsyncProxy(const sema::Operation &op, Target target);

// Every `with` block's walk (blocks without tracked async work have none).
std::vector<RoleFlight> asyncFlight(const sema::Kernel &k, const std::vector<RoleEvents> &roles, Target target);

// Where a role's access of a view is over: a generic access or a copy
// that completes on a barrier at once; an asynchronous read (a TMA
// store, a wgmma) at the role's next wait for all groups of its family,
// tcgen05 work at the next commit, whose arrival comes when it is done
// (nullopt: never); an MMA the target runs synchronously (mma.sync) at
// once. A wait counts only where a commit closed the access's group before
// it, and not in a loop the access is not in that may run no iteration.
std::optional<size_t> accessEnd(const sema::Kernel &k, const RoleEvents &r, const Event &e, Target target);

// The families of asynchronous work the walk leaves in flight at the end
// of a `with` block (RoleFlight::atEnd), which the lowering waits for: by
// block, in the order wgmma groups, bulk stores. tcgen05 work is not
// listed (its issuer always commits and waits before TMEM is released);
// reads only the elected thread has waited for are over.
std::map<const sema::RoleBlock *, std::vector<sema::AsyncGroup>> roleEndDrains(const std::vector<RoleFlight> &flight,
                                                                               Target target);

}  // namespace cake::analysis
