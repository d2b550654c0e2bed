// Sync.cpp - mbarrier waits and arrivals, named-barrier role syncs and
// proxy fences: the synchronisation every NVIDIA target lowers alike (the
// wrappers pick try_wait or test_wait per target).
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// The slot and parity of a wait come from its stage counter; a release
// barrier's first lap passes.
void KernelEmitter::mbarWait(const Operation &o, RoleCtx &rc) {
  ResourceId bar = o.operand(param::Wait::barrier).value.resource;
  const Resource &b = k_.resource(bar);
  std::string stage = stageText(o);
  bool release = f_.barrier(bar).release;
  line(fmt::format("{}({}, static_cast<uint32_t>({} & 1){});{}",
                   w_.use(sm90Plus() ? "cake_mbar_wait" : "cake_mbar_wait_polled"), barrierAddr(bar, stage),
                   ringLap(stage, b.count), release ? " ^ 1u" : "",
                   release ? "  // release barrier: the first lap passes" : ""));
}

// One arrival per role, warpgroup, warp or thread (`per`).
void KernelEmitter::mbarArrive(const Operation &o, RoleCtx &rc) {
  ResourceId bar = o.operand(param::Arrive::barrier).value.resource;
  std::string stage = stageText(o);
  std::string g;
  switch (o.scope) {
  case ArrivalScope::Role: g = electedGuard(rc); break;
  case ArrivalScope::Warpgroup: g = rc.singleThread ? "" : "if (cake_rtid % 128u == 0) "; break;
  // The warp's other lanes' accesses happen before lane 0's release only
  // through the warp barrier (__syncwarp orders memory among its lanes).
  case ArrivalScope::Warp: g = rc.singleThread ? "" : "__syncwarp(); if (cake_lane == 0) "; break;
  case ArrivalScope::Thread: break;
  }
  if (analysis::signalsCluster(o)) {
    line(fmt::format("{}{{  // on this stage in every block of the cluster", g));
    ++indent_;
    line(fmt::format("for (uint32_t cake_r = 0; cake_r < {}u; ++cake_r) {}({}, cake_r);", analysis::clusterSize(k_),
                     w_.use("cake_mbar_arrive_cluster"), barrierAddr(bar, stage)));
    --indent_;
    line("}");
    return;
  }
  line(fmt::format("{}{}({});", g, w_.use("cake_mbar_arrive"), barrierAddr(bar, stage)));
}

void KernelEmitter::fenceProxy(const Operation &, RoleCtx &) {
  if (sm90Plus())
    line(w_.use("cake_fence_proxy_async") + "();");
  else
    line("// lm.fence_proxy(): no async proxy before sm_90, nothing to order");
}

void KernelEmitter::roleSync(const Operation &, RoleCtx &rc) {
  if (rc.singleThread) return;  // one thread: nothing to meet
  line(fmt::format("{}({}, {});", w_.use("cake_named_barrier_sync"), rc.barrierId, rc.threads));
}

// Every thread of every role of the named barrier meets here: a role that
// syncs on one runs its body on all its threads (not single-thread).
void KernelEmitter::namedSync(const Operation &o, RoleCtx &) {
  ResourceId nb = o.operand(param::Sync::barrier).value.resource;
  line(fmt::format("{}({}, {});  // '{}': roles {}", w_.use("cake_barrier_sync_roles"), namedBarrierId(nb),
                   namedBarrierThreads(nb), k_.resource(nb).name, [&] {
                     std::string names;
                     for (ResourceId r : k_.resource(nb).consumers)
                       names += (names.empty() ? "'" : ", '") + k_.resource(r).name + "'";
                     return names;
                   }()));
}

}  // namespace cake::codegen::detail
