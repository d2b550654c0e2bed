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
  const analysis::BarrierFacts &bf = f_.barrier(bar);
  std::string counter = arrivalCounter(bar, stage);
  WaitSite site{o.range,    rc.role->name,    b.name, b.count, b.initCount, bf.arrivalsPerPhase, bf.txBytesPerPhase,
                bf.release, !counter.empty(), {}};
  if (checkWaits())
    for (const analysis::Event *ev : bf.signals) {
      const char *how = "";
      switch (ev->op->info().effects.signal) {
      case Signal::CompleteTx: how = " (a copy whose bytes complete on it)"; break;
      case Signal::CommitArrive: how = " (the tensor core arrives when its work is done)"; break;
      case Signal::CopyArrive: how = " (each thread arrives when its part of the copy lands)"; break;
      default: break;
      }
      site.signals.push_back({ev->op->range, fmt::format("'{}' is signalled here by role '{}'{}", b.name,
                                                         k_.resource(ev->role).name, how)});
    }
  line(waitCall(barrierAddr(bar, stage),
                fmt::format("static_cast<uint32_t>({} & 1){}", ringLap(stage, b.count), bf.release ? " ^ 1u" : ""),
                stage, std::move(site), counter) +
       (bf.release ? "  // release barrier: the first lap passes" : ""));
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
  line(g + countedSignal(fmt::format("{}({});", w_.use("cake_mbar_arrive"), barrierAddr(bar, stage)), bar, stage));
}

void KernelEmitter::fenceProxy(const Operation &, RoleCtx &rc) {
  if (sm90Plus()) {
    line(w_.use("cake_fence_proxy_async") + "();");
    // A wgmma orders no warp's stores before its reads: where each warp
    // stored the rows its own part reads (safety.warpgroup-read lets that
    // pass without lm.role_sync()), the warp's lanes meet here.
    if (!rc.singleThread) line("__syncwarp();");
  } else
    line("// lm.fence_proxy(): no async proxy before sm_90, nothing to order");
}

void KernelEmitter::roleSync(const Operation &, RoleCtx &rc) {
  if (rc.singleThread) return;  // one thread: nothing to meet
  line(fmt::format("{}({}, {});", w_.use("cake_named_barrier_sync"), rc.barrierId, rc.threads));
}

// The element offset of `coords` (innermost first) in a global tensor, in
// elements: the coordinates times the tensor's strides, in int64.
std::string KernelEmitter::elementOffset(const Resource &t, const Value &coords) {
  std::string offset;
  for (size_t d = 0; d < t.rank; ++d) {
    const Value &c = coords.elts[t.rank - 1 - d];  // innermost first
    std::string term = fmt::format("static_cast<int64_t>({})", value(c, false));
    offset += (offset.empty() ? "" : " + ") +
              (d + 1 == t.rank ? term : fmt::format("{} * {}.stride[{}]", term, globalRef(t), d));
  }
  return offset;
}

// Why an atomic or a flag wait cannot take this element ("" when it can):
// they take an i32 element of a workspace tensor named by as many
// coordinates as the tensor has dimensions (`notWorkspace`: why not for a
// tensor of another kind).
std::string KernelEmitter::elementProblem(const Resource &t, const Value &coords, const std::string &notWorkspace) {
  if (!t.workspace || t.dtype != DType::I32) return notWorkspace;
  if (coords.elts.size() != t.rank)
    return fmt::format("its coordinates name one element of the rank-{} tensor, {} of them", t.rank,
                       coords.elts.size());
  return "";
}

// lm.atomic: the role meets (every thread's earlier writes happen before
// the update, which a release makes visible with them), one thread updates
// the element and leaves its old value in the role's shared-memory slot, the
// role meets again (an acquire's view reaches every thread) and each thread
// reads the value. A role of one thread does the update alone.
void KernelEmitter::atomic(const Operation &o, RoleCtx &rc) {
  const Resource &t = k_.resource(o.operand(param::Atomic::tensor).value.resource);
  const Value &coords = o.operand(param::Atomic::coords).value;
  const std::string &op = o.operand(param::Atomic::op).value.str;
  const std::string &order = o.operand(param::Atomic::order).value.str;
  const std::string &scope = o.operand(param::Atomic::scope).value.str;
  std::string what = fmt::format("an atomic on '{}'", t.name);
  if (std::string why = elementProblem(t, coords, "atomics update i32 workspace tensors (lm.workspace)");
      !why.empty()) {
    refuse(DiagId::LowerAtomic, o.range, what, why);
    return;
  }
  if ((op == "cas") != o.operand(param::Atomic::compare).present) {
    refuse(DiagId::LowerAtomic, o.range, what,
           op == "cas" ? "op=\"cas\" takes compare=" : "compare= is for op=\"cas\"");
    return;
  }
  if (scope == "cluster" && !ti_.clusters) {
    refuse(DiagId::LowerAtomic, o.range, what, "the cluster scope needs a target with clusters (sm_90a and later)");
    return;
  }
  std::string call =
      fmt::format("{}(reinterpret_cast<int32_t *>({}.data) + ({}), {}{})", w_.useAtomic(op, order, scope), globalRef(t),
                  elementOffset(t, coords), value(o.operand(param::Atomic::value).value, false),
                  op == "cas" ? ", " + value(o.operand(param::Atomic::compare).value, false) : std::string());
  roleValue(o, rc, call, fmt::format("lm.atomic {} ({}, {} scope) on '{}'", op, order, scope, t.name));
  // What the acquire made visible to this role's generic accesses is not yet
  // ordered before its TMA copies (the async proxy): where TMA reads a
  // workspace, the role fences after an acquiring atomic.
  bool tmaWorkspace = false;
  for (const Resource &r : k_.resources) tmaWorkspace |= r.workspace && r.tma;
  if (ti_.tma() && tmaWorkspace && (order == "acquire" || order == "acq_rel"))
    line(w_.use("cake_fence_proxy_async_global") + "();  // the acquired writes, before TMA reads them");
}

// lm.wait_flag: one thread reads the element with acquire order until it
// equals the value (backing off), then the role meets, so every thread's
// later reads are ordered after the write that released the value. Under
// -fcheck-waits the spin gives up after the budget and records itself (the
// value it waited for, the last it read) as a numbered site.
void KernelEmitter::waitFlag(const Operation &o, RoleCtx &rc) {
  const Resource &t = k_.resource(o.operand(param::WaitFlag::tensor).value.resource);
  const Value &coords = o.operand(param::WaitFlag::coords).value;
  std::string what = fmt::format("a wait on flag '{}'", t.name);
  if (std::string why = elementProblem(t, coords, "flags are i32 elements of workspace tensors (lm.workspace)");
      !why.empty()) {
    refuse(DiagId::LowerFlagWait, o.range, what, why);
    return;
  }
  if (analysis::clusterSize(k_) > 1) {
    refuse(DiagId::LowerFlagWait, o.range, what,
           "a kernel that waits on flags is launched with all its blocks resident (a cooperative launch), which is "
           "not lowered for clusters of blocks");
    return;
  }
  std::string ptr =
      fmt::format("reinterpret_cast<const int32_t *>({}.data) + ({})", globalRef(t), elementOffset(t, coords));
  std::string v = value(o.operand(param::WaitFlag::value).value, false);
  std::string call;
  if (checkWaits()) {
    WaitSite site;
    site.range = o.range;
    site.role = rc.role->name;
    site.barrier = t.name;
    site.flag = true;
    waitSites_.push_back(std::move(site));
    call = fmt::format("{}({}, {}, cake_smem + {}u, {}u);", w_.use("cake_flag_wait_checked"), ptr, v, waitInfoOffset(),
                       waitSites_.size() - 1);
  } else {
    call = fmt::format("{}({}, {});", w_.use("cake_flag_wait"), ptr, v);
  }
  line(fmt::format("// lm.wait_flag: until '{}' holds {}", t.name, v));
  if (rc.singleThread) {
    line(call);
  } else {
    line("if (cake_rtid == 0) " + call);
    line(fmt::format("{}({}, {});  // the role's later reads after the acquire", w_.use("cake_named_barrier_sync"),
                     rc.barrierId, rc.threads));
  }
  bool tmaWorkspace = false;
  for (const Resource &r : k_.resources) tmaWorkspace |= r.workspace && r.tma;
  if (ti_.tma() && tmaWorkspace)
    line(w_.use("cake_fence_proxy_async_global") + "();  // the acquired writes, before TMA reads them");
}

// The run-time integer an operation yields for its role (OpResult::RoleInt,
// cake_rv<n>): one thread evaluates `expr` and leaves it in the role's
// shared-memory slot (Kernel::broadcastAt) between two meetings of the role,
// after which every thread takes it; a role of one thread evaluates it alone.
// Returns the variable's name.
std::string KernelEmitter::roleValue(const Operation &o, RoleCtx &rc, const std::string &expr,
                                     const std::string &what) {
  int64_t index = o.result.ix != kNoIntExpr ? k_.ints.node(o.result.ix).value : 0;
  std::string v = fmt::format("cake_rv{}", index);
  line(fmt::format("[[maybe_unused]] int32_t {};  // {}", v, what));
  if (rc.singleThread) {
    line(fmt::format("{} = {};", v, expr));
    return v;
  }
  auto slot = k_.broadcastAt.find(rc.role->id);
  CAKE_CHECK(slot != k_.broadcastAt.end(), "no shared-memory slot for a role's value (Kernel::broadcastAt)");
  std::string sync = fmt::format("{}({}, {});", w_.use("cake_named_barrier_sync"), rc.barrierId, rc.threads);
  line(sync);
  line(fmt::format("if (cake_rtid == 0) *reinterpret_cast<volatile int32_t *>(cake_smem_raw + {}u) = {};", slot->second,
                   expr));
  line(sync);
  line(fmt::format("{} = *reinterpret_cast<volatile int32_t *>(cake_smem_raw + {}u);", v, slot->second));
  return v;
}

// lm.load_scalar: the role meets (a value every thread holds the same, as an
// atomic's old value), one thread reads the element into the role's
// shared-memory slot, the role meets again and every thread takes it; a
// value outside the declared [lo, hi) stops the kernel (the role's first
// thread records it for the launcher, the role meets, every thread traps), so what the
// kernel addresses with it stays within the range the launcher checked (a
// table the kernel writes is the data gate's: data.value-read-written).
void KernelEmitter::loadScalar(const Operation &o, RoleCtx &rc) {
  const Resource &t = k_.resource(o.operand(param::LoadScalar::tensor).value.resource);
  const Value &coords = o.operand(param::LoadScalar::coords).value;
  const std::string &order = o.operand(param::LoadScalar::order).value.str;
  std::string what = fmt::format("a scalar read of '{}'", t.name);
  if (coords.elts.size() != t.rank) {
    refuse(
        DiagId::LowerScalarRead, o.range, what,
        fmt::format("its coordinates name one element of the rank-{} tensor, {} of them", t.rank, coords.elts.size()));
    return;
  }
  if (order != "relaxed" && order != "acquire") {
    refuse(DiagId::LowerScalarRead, o.range, what, "a read is relaxed or acquire");
    return;
  }
  std::string read = fmt::format("{}(reinterpret_cast<const int32_t *>({}.data) + ({}))",
                                 w_.use(order == "acquire" ? "cake_ld_acquire_s32" : "cake_ld_relaxed_s32"),
                                 globalRef(t), elementOffset(t, coords));
  std::string v = roleValue(o, rc, read, fmt::format("lm.load_scalar ({}) of '{}'", order, t.name));
  std::string lo = value(o.operand(param::LoadScalar::lo).value, false);
  std::string hi = value(o.operand(param::LoadScalar::hi).value, false);
  // A role family's members share their body's reads.
  std::pair<SourceRange, std::string> site{o.range, fmt::format("lm.load_scalar of '{}'", t.name)};
  size_t siteNo = 0;
  while (siteNo < valueSites_.size() &&
         !(valueSites_[siteNo].first.begin == site.first.begin && valueSites_[siteNo].second == site.second))
    ++siteNo;
  if (siteNo == valueSites_.size()) valueSites_.push_back(std::move(site));
  line(fmt::format("if (static_cast<int64_t>({0}) < static_cast<int64_t>({1}) || static_cast<int64_t>({0}) >= "
                   "static_cast<int64_t>({2})) {{",
                   v, lo, hi));
  line(fmt::format("  {}{}(cake_vfault, {}u, {}, {}, {});", rc.singleThread ? "" : "if (cake_rtid == 0) ",
                   w_.use("cake_value_out_of_range"), siteNo, v, lo, hi));
  if (!rc.singleThread)
    line(fmt::format("  {}({}, {});  // recorded before any thread stops", w_.use("cake_named_barrier_sync"),
                     rc.barrierId, rc.threads));
  line("  __trap();");
  line("}");
}

// Every thread of every role of the named barrier meets here: a role that
// syncs on one runs its body on all its threads (not single-thread).
void KernelEmitter::namedSync(const Operation &o, RoleCtx &rc) {
  if (checkWaits()) return checkedMeeting(o, rc);
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
