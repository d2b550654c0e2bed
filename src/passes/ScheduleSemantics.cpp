// ScheduleSemantics: the schedule's structure is coherent.
//
//  - roles have disjoint warps, and no warp of the block is left idle;
//  - each role has one `with` block;
//  - every declared producer of a barrier arrives on it and every declared
//    consumer waits on it, and no other role does either;
//  - stage counts agree between a barrier and its pipeline, and between a
//    staged view and the barrier its copies complete on;
//  - declarations nobody uses are reported (warning, -Wunused).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "passes/Passes.h"
#include "analysis/ScheduleModel.h"

namespace cake::passes {

using namespace sema;
using namespace analysis;

namespace {
std::string roleList(const Kernel &k, const std::vector<ResourceId> &ids) {
  std::string s;
  for (ResourceId id : ids) s += (s.empty() ? "'" : ", '") + k.resources[id].name + "'";
  return "[" + s + "]";
}
}  // namespace

void checkScheduleSemantics(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DiagnosticEngine &diags = ctx.diags;

  // Disjoint warps; idle warps.
  std::map<int64_t, ResourceId> owner;
  for (const Resource &r : k.resources) {
    if (r.kind != ResourceKind::Role) continue;
    for (int64_t w : r.warps) {
      auto [it, inserted] = owner.emplace(w, r.id);
      if (!inserted) {
        const Resource &other = k.resources[it->second];
        diags.build(DiagId::ScheduleOverlappingRoles, r.range, w, other.name, r.name)
            .note(DiagId::NoteRoleDeclaredHere, other.range, other.name)
            .emit();
      }
    }
  }
  // (Blocks over the thread limit are the hardware gate's to report.)
  std::string idle;
  for (int64_t w = 0; k.threads <= targetInfo(ctx.module.target).maxThreads && w < k.threads / 32; ++w)
    if (!owner.count(w)) idle += (idle.empty() ? "" : ", ") + std::to_string(w);
  if (!idle.empty()) diags.report(DiagId::ScheduleIdleWarps, k.nameRange, idle, k.threads);

  // One block per role.
  std::map<ResourceId, const RoleBlock *> firstBlock;
  for (const RoleBlock &b : k.roles) {
    auto [it, inserted] = firstBlock.emplace(b.role, &b);
    if (!inserted)
      diags.build(DiagId::ScheduleDuplicateRoleBlock, b.range, k.resources[b.role].name)
          .note(DiagId::NoteFirstRoleBlock, it->second->range, k.resources[b.role].name)
          .emit();
  }

  // Who arrives on and waits on each barrier, from the operations' effects.
  const std::vector<RoleEvents> &roles = f.roles;
  std::map<ResourceId, std::set<ResourceId>> signallers, waiters;
  std::set<ResourceId> used;  // resources any operation touches
  // A role that signals (waits on) a barrier must be among its declared
  // producers (consumers).
  auto record = [&](const Operation &op, ResourceId role, ResourceId b, std::set<ResourceId> &seen,
                    const std::vector<ResourceId> &declared, DiagId undeclared) {
    if (b == kNoResource) return;
    seen.insert(role);
    if (std::count(declared.begin(), declared.end(), role)) return;
    diags.build(undeclared, op.range, k.resources[role].name, k.resources[b].name, roleList(k, declared))
        .note(DiagId::NoteBarrierDeclaredHere, k.resources[b].range, k.resources[b].name)
        .emit();
  };
  for (const RoleEvents &r : roles) {
    for (const Event &e : r.events) {
      const Operation &op = *e.op;
      const OpEffects &fx = op.info().effects;
      ResourceId sb = effectResource(op, fx.signals);
      ResourceId wb = effectResource(op, fx.waits);
      if (sb != kNoResource)
        record(op, r.role, sb, signallers[sb], k.resources[sb].producers, DiagId::ScheduleUndeclaredProducer);
      if (wb != kNoResource)
        record(op, r.role, wb, waiters[wb], k.resources[wb].consumers, DiagId::ScheduleUndeclaredConsumer);
      if (op.receiver != kNoResource) used.insert(op.receiver);
      for (const Operand &o : op.operands) {
        if (!o.present) continue;
        if (o.value.kind == ValueKind::Resource || o.value.kind == ValueKind::ViewStage) used.insert(o.value.resource);
      }
    }
  }
  for (const Resource &b : k.resources) {
    if (b.kind != ResourceKind::Barrier) continue;
    for (ResourceId p : b.producers)
      if (!signallers[b.id].count(p))
        diags.build(DiagId::ScheduleProducerNeverArrives, b.range, k.resources[p].name, b.name)
            .note(DiagId::NoteRoleDeclaredHere, k.resources[p].range, k.resources[p].name)
            .emit();
    for (ResourceId c : b.consumers)
      if (!waiters[b.id].count(c))
        diags.build(DiagId::ScheduleConsumerNeverWaits, b.range, k.resources[c].name, b.name)
            .note(DiagId::NoteRoleDeclaredHere, k.resources[c].range, k.resources[c].name)
            .emit();
    if (b.pipeline != kNoResource && k.resources[b.pipeline].stages != b.count) {
      const Resource &p = k.resources[b.pipeline];
      diags.build(DiagId::ScheduleStageCountMismatch, b.range, "barrier", b.name, b.count, "its pipeline", p.name,
                  p.stages)
          .note(DiagId::NoteDeclaredHere, p.range, p.name)
          .emit();
    }
  }
  // A staged view filled by copies completing on a barrier has as many
  // stages as the barrier has mbarriers.
  std::set<std::pair<ResourceId, ResourceId>> reported;
  for (const RoleEvents &r : roles)
    for (const Event &e : r.events) {
      const OpEffects &fx = e.op->info().effects;
      ResourceId b = effectResource(*e.op, fx.signals);
      ResourceId v = effectResource(*e.op, fx.writes);
      if (b == kNoResource || v == kNoResource || k.resources[v].kind != ResourceKind::View) continue;
      const Resource &view = k.resources[v];
      const Resource &bar = k.resources[b];
      if (view.stages > 1 && view.stages != bar.count && reported.insert({v, b}).second)
        diags.build(DiagId::ScheduleStageCountMismatch, e.op->range, "view", view.name, view.stages, "barrier",
                    bar.name, bar.count)
            .note(DiagId::NoteBarrierDeclaredHere, bar.range, bar.name)
            .emit();
    }

  // Unused declarations. Uses: operations' operands and receivers, views of
  // a pool, barriers of a pipeline, roles entered or named by barriers and
  // fragments.
  for (const Resource &r : k.resources) {
    if (r.kind == ResourceKind::View && r.pool != kNoResource) used.insert(r.pool);
    if (r.kind == ResourceKind::Barrier) {
      if (r.pipeline != kNoResource) used.insert(r.pipeline);
      for (ResourceId p : r.producers) used.insert(p);
      for (ResourceId c : r.consumers) used.insert(c);
    }
    if (r.kind == ResourceKind::Regs && r.role != kNoResource) used.insert(r.role);
  }
  for (const RoleBlock &b : k.roles) used.insert(b.role);
  for (const Resource &r : k.resources) {
    if (used.count(r.id) || r.derived || r.kind == ResourceKind::ScalarParam) continue;
    diags.report(DiagId::ScheduleUnused, r.range, resourceKindName(r.kind), r.name);
  }
}

}  // namespace cake::passes
